/// What the core asks of the pairing adapter, carried out with the rest of
/// a decision (after its grant write).
public enum SetupPairingOrder: Hashable, Sendable {
    /// Pair this approved accessory; end with `completePairing` or `failPairing`.
    case start(PendingPairing)
    /// The request ended otherwise (denied, withdrawn, its session gone):
    /// stop its pairing and keep nothing of it.
    case cancel(request: UInt32)
    /// The accessory's grant is gone: its bond goes too (a rename keeps it).
    case removeBond(AccessoryID, BluetoothDeviceIdentifier?)
}
