import AccessoryCore

/// One kind of accessory the picker asks for (`ASPickerDisplayItem`): what a
/// person is shown, and the descriptor that decides which devices qualify.
public struct PickerDisplayItem: Hashable, Sendable {
    /// What happens during setup (`ASPickerDisplayItem.SetupOptions`).
    public struct SetupOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Whoever approves may give the accessory a name of their own.
        public static let rename = SetupOptions(rawValue: 1 << 0)
        /// The approver confirms again before the accessory is authorized.
        public static let confirmAuthorization = SetupOptions(rawValue: 1 << 1)
        /// The app completes setup and then calls `finishAuthorization`.
        public static let finishInApp = SetupOptions(rawValue: 1 << 2)
    }

    /// `ASAccessoryRenameOptions`.
    public struct RenameOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// A Wi-Fi accessory's SSID is renamed too.
        public static let ssid = RenameOptions(rawValue: 1 << 0)
    }

    public var name: String
    /// An image of the product for a picker that can show one; nil for none.
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
}

/// What a rename changes besides the display name (`ASAccessoryRenameOptions`),
/// for `PickerDisplayItem.renameOptions` and `AccessorySession.renameAccessory`.
public typealias AccessoryRenameOptions = PickerDisplayItem.RenameOptions
