/// One kind of accessory the picker asks for (`ASPickerDisplayItem`): what a
/// person is shown, and the descriptor that decides which devices qualify.
public struct PickerDisplayItem: Hashable, Sendable {
    /// What happens during setup (`ASPickerDisplayItem.SetupOptions`).
    public struct SetupOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Whoever approves may give the accessory a name of their own.
        public static let rename = SetupOptions(rawValue: 1 << 0)
        /// The approver confirms again before the accessory is authorized.
        public static let confirmAuthorization = SetupOptions(rawValue: 1 << 1)
        /// The app completes setup and then calls `finishAuthorization`.
        public static let finishInApp = SetupOptions(rawValue: 1 << 2)
    }

    public var name: String
    /// An image of the product for a picker that can show one; nil for none.
    public var productImagePath: String?
    public var descriptor: DiscoveryDescriptor
    public var setupOptions: SetupOptions
    public var renameOptions: AccessoryRenameOptions

    public init(
        name: String, productImagePath: String? = nil, descriptor: DiscoveryDescriptor,
        setupOptions: SetupOptions = [], renameOptions: AccessoryRenameOptions = []
    ) {
        self.name = name
        self.productImagePath = productImagePath
        self.descriptor = descriptor
        self.setupOptions = setupOptions
        self.renameOptions = renameOptions
    }
}

/// What a rename changes besides the display name (`ASAccessory.RenameOptions`).
public struct AccessoryRenameOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A Wi-Fi accessory's SSID is renamed too.
    public static let ssid = AccessoryRenameOptions(rawValue: 1 << 0)
}
