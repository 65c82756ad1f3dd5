import AccessoryCore
import AccessoryPlatform
import AccessoryWire

/// Reading the API's structured arguments. A malformed value is the
/// caller's mistake: `invalidRequest` naming the field, never a crash. Every
/// reader is linear in its input and stops at the first thing over one of
/// `limits` (`invalidRequest` naming the limit).
enum BusArguments {
    /// An `a{ss}` descriptor (keys as `DescriptorFields`).
    static func descriptor(_ call: BusMessage, limits: AppLimits = AppLimits()) throws(AccessorySetupError) -> DiscoveryDescriptor {
        let reader = LimitedArguments(call, limits: limits)
        let pairs = try read { () throws(BusError) in try reader.pairs("a descriptor") }
        do { return try DescriptorFields.descriptor(from: pairs) } catch {
            throw AccessorySetupError(.invalidRequest, reason: .message("\(error)"))
        }
    }

    /// `a(ssa{ss}asas)`: name, product image, descriptor, setup options, rename options.
    static func displayItems(_ call: BusMessage, limits: AppLimits = AppLimits()) throws(AccessorySetupError) -> [PickerDisplayItem] {
        try displayItems(LimitedArguments(call, limits: limits))
    }

    /// The same, counting against `reader`'s budget (a call's arguments together).
    static func displayItems(_ reader: LimitedArguments) throws(AccessorySetupError) -> [PickerDisplayItem] {
        let raw = try read { () throws(BusError) in
            try reader.records(of: WireDisplayItem.self, bound: .displayItems, "display items")
        }
        var items: [PickerDisplayItem] = []
        for entry in raw {
            try checkName(entry.name, "a display item")
            let descriptor: DiscoveryDescriptor
            do { descriptor = try DescriptorFields.descriptor(from: entry.descriptor) } catch {
                throw invalid("\(entry.name): \(error)")
            }
            var setup: PickerDisplayItem.SetupOptions = []
            for word in entry.setupOptions {
                guard let option = PickerDisplayItem.SetupOptions.names.first(where: { $0.name == word })?.option else {
                    throw invalid("\(entry.name): unknown setup option \(word) (rename, confirmAuthorization, finishInApp)")
                }
                setup.insert(option)
            }
            var rename: PickerDisplayItem.RenameOptions = []
            for word in entry.renameOptions {
                guard word == RenameOptionWords.ssid else { throw invalid("\(entry.name): unknown rename option \(word) (ssid)") }
                rename.insert(.ssid)
            }
            items.append(PickerDisplayItem(name: entry.name, productImagePath: entry.productImage.isEmpty ? nil : entry.productImage,
                                           descriptor: descriptor, setupOptions: setup, renameOptions: rename))
        }
        return items
    }

    /// `a{ss}`: DiscoveryTimeout, FilterDiscoveryResults.
    static func settings(_ call: BusMessage, limits: AppLimits = AppLimits()) throws(AccessorySetupError) -> PickerDisplaySettings {
        try settings(LimitedArguments(call, limits: limits))
    }

    /// The same, counting against `reader`'s budget (a call's arguments together).
    static func settings(_ reader: LimitedArguments) throws(AccessorySetupError) -> PickerDisplaySettings {
        var settings = PickerDisplaySettings()
        for (key, value) in try read({ () throws(BusError) in try reader.pairs("picker settings") }) {
            switch key {
            case WirePickerSettings.discoveryTimeout:
                guard let timeout = PickerDisplaySettings.DiscoveryTimeout(value) else {
                    throw invalid("DiscoveryTimeout=\(value): short, medium, long, unbounded or seconds")
                }
                settings.discoveryTimeout = timeout
            case WirePickerSettings.filterDiscoveryResults:
                guard value == "true" || value == "false" else { throw invalid("FilterDiscoveryResults=\(value): true or false") }
                settings.filterDiscoveryResults = value == "true"
            default:
                throw invalid("unknown picker setting \(key)")
            }
        }
        return settings
    }

    /// `a(sssa{ss})`: name, Bluetooth address, SSID, descriptor.
    static func migrationItems(_ call: BusMessage, limits: AppLimits = AppLimits()) throws(AccessorySetupError) -> [MigrationItem] {
        let reader = LimitedArguments(call, limits: limits)
        let raw = try read { () throws(BusError) in
            try reader.records(of: WireMigrationItem.self, bound: .migrationItems, "migration items")
        }
        var items: [MigrationItem] = []
        for entry in raw {
            try checkName(entry.name, "a migration item")
            let identity: DeviceIdentity
            switch (entry.bluetoothAddress.isEmpty, entry.ssid.isEmpty) {
            case (false, true):
                guard let device = BluetoothDeviceIdentifier(parsing: entry.bluetoothAddress) else {
                    throw invalid("\(entry.name): \(entry.bluetoothAddress) is not AA:BB:CC:DD:EE:FF[/random]")
                }
                identity = .bluetooth(device)
            case (true, false):
                var probe = DiscoveryDescriptor()
                do { try DescriptorFields.apply(key: WireAuthorizationSettings.ssid, value: entry.ssid, to: &probe) } catch {
                    throw invalid("\(entry.name): \(error)")
                }
                guard let ssid = probe.ssid else { throw invalid("\(entry.name): no SSID") }
                identity = .wifi(ssid)
            default:
                throw invalid("\(entry.name): give a Bluetooth address or an SSID, not both or neither")
            }
            let descriptor: DiscoveryDescriptor
            do { descriptor = try DescriptorFields.descriptor(from: entry.descriptor) } catch {
                throw invalid("\(entry.name): \(error)")
            }
            items.append(MigrationItem(name: entry.name, identity: identity, descriptor: descriptor))
        }
        return items
    }

    /// `a(uss)`: candidate, display name, product image.
    /// At most `DisplayItems` entries: a picker shows no more than that at once.
    static func shownCandidates(_ call: BusMessage, limits: AppLimits = AppLimits()) throws(AccessorySetupError) -> [(candidate: UInt32, name: String, image: String)] {
        let reader = LimitedArguments(call, limits: limits)
        let shown = try read { () throws(BusError) in
            try reader.records(of: WireShownCandidate.self, bound: .displayItems, "shown candidates")
        }
        for entry in shown where DisplayText.hasControlCharacters(entry.name) {
            throw invalid("a candidate's display name holds control characters")
        }
        return shown.map { ($0.candidate, $0.name, $0.productImage) }
    }

    /// `a{ss}` authorization settings (`FinishAuthorization`).
    static func pairs(_ call: BusMessage, _ what: String, limits: AppLimits = AppLimits()) throws(AccessorySetupError) -> [(key: String, value: String)] {
        let reader = LimitedArguments(call, limits: limits)
        return try read { () throws(BusError) in try reader.pairs(what) }
    }

    /// `a{ss}` authorization settings (`FinishAuthorization`): `SSID`, `BridgingIdentifier`.
    static func authorizationSettings(_ call: BusMessage, limits: AppLimits = AppLimits()) throws(AccessorySetupError) -> (ssid: SSID?, bridgingIdentifier: String?) {
        var ssid: SSID?
        var bridging: String?
        for (key, value) in try pairs(call, "authorization settings", limits: limits) {
            switch key {
            case WireAuthorizationSettings.ssid:
                var probe = DiscoveryDescriptor()
                do { try DescriptorFields.apply(key: WireAuthorizationSettings.ssid, value: value, to: &probe) } catch {
                    throw invalid("\(error)")
                }
                ssid = probe.ssid
            case WireAuthorizationSettings.bridgingIdentifier: bridging = value
            default: throw invalid("unknown authorization setting \(key) (SSID, BridgingIdentifier)")
            }
        }
        return (ssid, bridging)
    }

    /// `s name, as options` (`RenameAccessory`, after the accessory).
    static func renaming(_ call: BusMessage, limits: AppLimits = AppLimits()) throws(AccessorySetupError) -> (name: String, renameSSID: Bool) {
        let reader = LimitedArguments(call, limits: limits)
        let name = try read { () throws(BusError) in try reader.string("a name") }
        let options = try read { () throws(BusError) in try reader.strings("rename options") }
        guard options.allSatisfy({ $0 == RenameOptionWords.ssid }) else { throw invalid("unknown rename option (ssid)") }
        return (name, options.contains(RenameOptionWords.ssid))
    }

    /// A name an app gives: text, and no control characters (as `RenameAccessory`).
    static func checkName(_ name: String, _ what: String) throws(AccessorySetupError) {
        guard !name.isEmpty else { throw invalid("\(what) needs a name") }
        guard !DisplayText.hasControlCharacters(name) else {
            throw invalid("\(what)'s name holds control characters: \(DisplayText.quoted(name))")
        }
    }

    /// An object path naming an accessory.
    static func accessory(_ call: BusMessage) throws(AccessorySetupError) -> AccessoryID {
        let path = try read { () throws(BusError) in try call.readObjectPath() }
        guard let id = BusNames.accessory(at: path) else { throw unknownAccessory(path) }
        return id
    }

    static func unknownAccessory(_ what: String) -> AccessorySetupError {
        AccessorySetupError(.invalidRequest, reason: .message("unknown accessory \(what)"))
    }

    static func invalid(_ message: String) -> AccessorySetupError {
        AccessorySetupError(.invalidRequest, reason: .message(message))
    }

    static func read<T>(_ body: () throws(BusError) -> T) throws(AccessorySetupError) -> T {
        do { return try body() } catch {
            // A limit names itself; anything else is a malformed argument.
            throw invalid(error.name == BusError.limitsExceededName ? error.message : "bad arguments: \(error.message)")
        }
    }
}
