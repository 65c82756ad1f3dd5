/// What the accessory can do (`ASAccessory.SupportOptions`), declared on a
/// descriptor as `supportedOptions`. Matching ignores them; setup uses them.
public struct AccessorySupportOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let bluetoothPairingLE = AccessorySupportOptions(rawValue: 1 << 1)
    public static let bluetoothTransportBridging = AccessorySupportOptions(rawValue: 1 << 2)
    public static let bluetoothHID = AccessorySupportOptions(rawValue: 1 << 3)
}
