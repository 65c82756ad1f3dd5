import AccessoryCore

/// [Bluetooth] ScanMode=: how the agent scans on the controllers it drives.
public enum BluetoothScanMode: String, CaseIterable, Hashable, Sendable {
    /// Passive, unless a descriptor needs what only a scan response may carry (a name).
    case auto
    /// Only listens: nothing is transmitted.
    case passive
    /// Sends scan requests, so scan responses are heard too.
    case active
}

/// The [Bluetooth] settings of the configuration.
public struct BluetoothSettings: Hashable, Sendable {
    /// Controllers to use, by HCI index; nil means every LE controller.
    public var controllers: Set<UInt16>?
    /// Controllers the agent takes for itself (HCI user channel): the kernel
    /// and bluetoothd cannot use them while accessoryd runs.
    public var exclusiveControllers: Set<UInt16> = []
    /// Silence after which a scan is restarted; nil turns the watchdog off.
    public var scanWatchdog: Duration? = .seconds(90)
    public var scanMode: BluetoothScanMode = .auto
    /// PowerControllers=: whether accessoryd powers the controllers it uses when no other process manages them.
    public var powerControllers: ControllerPowerPolicy.Setting = .auto

    public init() {}

    public func uses(controller index: UInt16) -> Bool {
        controllers?.contains(index) ?? true || exclusiveControllers.contains(index)
    }

    /// A controller accessoryd uses through the kernel's stack, as bluetoothd may:
    /// where channels are opened and pairings made (not one held as a user channel).
    public func shares(controller index: UInt16) -> Bool {
        uses(controller: index) && !exclusiveControllers.contains(index)
    }

    /// Parses `hci0 hci2` or `0,2` (space or comma separated); nil for a bad entry.
    public static func controllerList(_ text: String) -> Set<UInt16>? {
        var indices = Set<UInt16>()
        for word in text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }) {
            let digits = word.hasPrefix("hci") ? word.dropFirst(3) : word[...]
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let index = UInt16(digits),
                index != 0xFFFF
            else { return nil }
            indices.insert(index)
        }
        return indices
    }

    /// Parses `90`, `90s`, `2min` or `0`/`off` (nil watchdog, wrapped in
    /// `.some`); the outer nil means the text is not a duration.
    public static func watchdogDuration(_ text: String) -> Duration?? {
        let lowered = text.lowercased()
        if lowered == "off" || lowered == "no" { return .some(nil) }
        guard let duration = TimeSpan.parse(lowered) else { return nil }
        return duration == .zero ? .some(nil) : .some(duration)
    }

    /// The scan type for `mode`. A name may be only in the scan response,
    /// which passive scanning never hears, and descriptors may match by name
    /// only for apps whose manifests declare Bluetooth names.
    public static func scanType(for mode: BluetoothScanMode, apps: AppManifestCatalog) -> ScanType {
        switch mode {
        case .passive: return .passive
        case .active: return .active
        case .auto: return apps.manifests.values.contains { !$0.bluetoothNames.isEmpty } ? .active : .passive
        }
    }

    public enum ScanType: String, Hashable, Sendable {
        case passive
        case active
    }
}
