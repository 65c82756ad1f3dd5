/// What an app declares up front, the Linux counterpart of the NSAccessorySetup
/// keys of an Info.plist: who it is and what it may look for. The agent refuses
/// any descriptor that uses a value not declared here (`invalidRequest`).
public struct AppManifest: Hashable, Sendable {
    public var app: AppID
    public var displayName: String?
    /// The unix user the app runs as; a caller on the bus with this uid is this app.
    public var user: String?
    /// The systemd unit (`.service` or `.scope`) the app runs in.
    public var unit: String?
    /// The app's `.socket` unit accessoryd connects to, to have systemd
    /// start the app when an accessory it observes appears (`WakeSocket=`).
    public var wakeSocket: String?
    /// Product images for pickers (`ProductImage=`), in the order declared;
    /// once loaded, only those whose file passed `ProductImage.validate`.
    public var productImages: [String]
    public var supports: AccessorySupport
    public var bluetoothServiceUUIDs: Set<BluetoothUUID>
    public var bluetoothCompanyIdentifiers: Set<UInt16>
    /// Names a descriptor may use as name substring or name pattern, exactly as written.
    public var bluetoothNames: Set<String>
    /// `[Bluetooth] Pairing=yes`: the app's descriptors may ask for pairing
    /// during setup (`SupportedOptions=bluetoothPairingLE`).
    public var bluetoothPairing: Bool
    public var ssids: Set<SSID>
    /// A descriptor's SSID or SSID prefix may start with any of these.
    public var ssidPrefixes: Set<[UInt8]>
    /// The file it was read from.
    public var source: String

    public init(
        app: AppID,
        displayName: String? = nil,
        user: String? = nil,
        unit: String? = nil,
        wakeSocket: String? = nil,
        productImages: [String] = [],
        supports: AccessorySupport = [],
        bluetoothServiceUUIDs: Set<BluetoothUUID> = [],
        bluetoothCompanyIdentifiers: Set<UInt16> = [],
        bluetoothNames: Set<String> = [],
        bluetoothPairing: Bool = false,
        ssids: Set<SSID> = [],
        ssidPrefixes: Set<[UInt8]> = [],
        source: String = ""
    ) {
        self.app = app
        self.displayName = displayName
        self.user = user
        self.unit = unit
        self.wakeSocket = wakeSocket
        self.productImages = productImages
        self.supports = supports
        self.bluetoothServiceUUIDs = bluetoothServiceUUIDs
        self.bluetoothCompanyIdentifiers = bluetoothCompanyIdentifiers
        self.bluetoothNames = bluetoothNames
        self.bluetoothPairing = bluetoothPairing
        self.ssids = ssids
        self.ssidPrefixes = ssidPrefixes
        self.source = source
    }
}
