/// One kind of accessory an app asks for (`ASPickerDisplayItem`): what the
/// person deciding sees, and the descriptor that finds candidates.
public struct PickerDisplayItem: Hashable, Sendable {
    /// `ASPickerDisplayItem.SetupOptions`.
    public struct SetupOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The person deciding may give the accessory a name of their own.
        public static let rename = SetupOptions(rawValue: 1 << 0)
        /// The app confirms the pick (`finishAuthorization`) before it is final.
        public static let confirmAuthorization = SetupOptions(rawValue: 1 << 1)
        /// The app finishes setting the accessory up itself, then calls `finishAuthorization`.
        public static let finishInApp = SetupOptions(rawValue: 1 << 2)

        public static let names: [(name: String, option: SetupOptions)] = [
            ("rename", .rename), ("confirmAuthorization", .confirmAuthorization), ("finishInApp", .finishInApp),
        ]
    }

    /// `ASAccessoryRenameOptions`.
    public struct RenameOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Renaming a Wi-Fi accessory renames its hotspot's SSID too.
        public static let ssid = RenameOptions(rawValue: 1 << 0)
    }

    public var name: String
    /// A picture a picker UI may show: one of the app's `ProductImage=` files,
    /// checked when the manifest loaded; pickers read the file themselves.
    public var productImagePath: String?
    public var descriptor: DiscoveryDescriptor
    public var setupOptions: SetupOptions
    public var renameOptions: RenameOptions

    public init(
        name: String, productImagePath: String? = nil, descriptor: DiscoveryDescriptor,
        setupOptions: SetupOptions = [], renameOptions: RenameOptions = []
    ) {
        self.name = name
        self.productImagePath = productImagePath
        self.descriptor = descriptor
        self.setupOptions = setupOptions
        self.renameOptions = renameOptions
    }

    /// Whether the accessory waits for the app's `finishAuthorization` once picked.
    public var needsAppAuthorization: Bool { !setupOptions.isDisjoint(with: [.confirmAuthorization, .finishInApp]) }
}
