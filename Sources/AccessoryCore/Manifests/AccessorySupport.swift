/// The radios an app may use (`NSAccessorySetupSupports`): `Supports=` in a manifest's [App] section.
public struct AccessorySupport: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bluetooth = AccessorySupport(rawValue: 1 << 0)
    public static let wifi = AccessorySupport(rawValue: 1 << 1)
}
