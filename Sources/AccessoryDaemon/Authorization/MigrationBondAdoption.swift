import AccessoryCore

/// Whether a migrated Bluetooth item brings a bond the gateway already has.
///
/// The keeper is asked when the app asks for the migration, not when it is
/// approved: the approval is one call that reports at once what it granted
/// (accessoryctl lists it), and it must not wait on another daemon. A
/// migration always waits for an administrator, so the answer is in long
/// before anyone approves; one that is not in (or never came) grants
/// without a bond, as a migration did before adoption. Pure: the center
/// keeps the lookups and carries the outcomes out.
enum MigrationBondAdoption {
    /// One migration request's question to the keeper.
    enum Lookup: Hashable, Sendable {
        case asking
        case answered(BondLookupAnswer)
    }

    enum Outcome: Hashable, Sendable {
        /// The keeper holds a bond of it: the grant records the keeper's bond.
        case adopt
        /// The keeper holds none: granted as before, without a bond.
        case notBonded
        /// Nobody to ask: no bluetoothd (accessoryd's own bonds belong to grants only).
        case noKeeper
        /// The keeper did not say (why): granted without a bond.
        case unknown(String)
    }

    /// The outcome for `device`, from the request's lookup (nil: none was
    /// made) and whether a keeper can take the bond now.
    static func outcome(for device: BluetoothDeviceIdentifier, lookup: Lookup?, keeperPresent: Bool) -> Outcome {
        switch (lookup, keeperPresent) {
        case (nil, false): .noKeeper
        case (nil, true): .unknown("bluetoothd was not running when the migration was asked for")
        case (.some, false): .unknown("bluetoothd is not running now")
        case (.asking, true): .unknown("bluetoothd has not answered yet")
        case (.answered(.failed(let why)), true): .unknown(why)
        case (.answered(.bonded(let devices)), true): devices.contains(device) ? .adopt : .notBonded
        }
    }
}
