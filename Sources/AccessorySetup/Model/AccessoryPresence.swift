import AccessoryCore

/// Whether the agent hears one of the app's accessories, after a change
/// (`PropertiesChanged` of `Present`/`RSSI` on its object). Not an ASK event,
/// hence `AccessorySession.presenceChanges` rather than `events`.
public struct AccessoryPresence: Hashable, Sendable, CustomStringConvertible {
    public var accessory: AccessoryID
    public var isPresent: Bool
    /// The signal strength (dBm) it was heard with, when the agent says; nil
    /// while it is absent.
    public var rssi: Int?

    public init(accessory: AccessoryID, isPresent: Bool, rssi: Int? = nil) {
        self.accessory = accessory
        self.isPresent = isPresent
        self.rssi = rssi
    }

    public var description: String {
        "\(accessory) " + (isPresent ? "present" : "absent") + (rssi.map { " rssi=\($0)" } ?? "")
    }
}
