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
        guard !raw.isEmpty else {
            let bound = reader.limits.displayItems
            throw invalid("display items: none given; give 1 to \(bound) (the limit \(AppLimits.Limit.displayItems.rawValue)=\(bound))")
        }
        var items: [PickerDisplayItem] = []
        for entry in raw {
            try checkName(entry.name, "a display item")
            let descriptor: DiscoveryDescriptor
            do { descriptor = try DescriptorFields.descriptor(from: entry.descriptor) } catch {
                throw invalid("display item \(shown(entry.name)): \(error)")
            }
            var setup: PickerDisplayItem.SetupOptions = []
            for word in entry.setupOptions {
                guard let option = PickerDisplayItem.SetupOptions.names.first(where: { $0.name == word })?.option else {
                    throw invalid("display item \(shown(entry.name)): setup option \(shown(word)) is unknown; "
                        + "the options are \(PickerDisplayItem.SetupOptions.names.map(\.name).joined(separator: ", "))")
                }
                setup.insert(option)
            }
            var rename: PickerDisplayItem.RenameOptions = []
            for word in entry.renameOptions {
                guard word == RenameOptionWords.ssid else {
                    throw invalid("display item \(shown(entry.name)): \(unknownRenameOption(word))")
                }
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
                    throw invalid("picker settings: DiscoveryTimeout=\(shown(value)) is not short, medium, long, unbounded or a number of seconds")
                }
                settings.discoveryTimeout = timeout
            case WirePickerSettings.filterDiscoveryResults:
                guard value == "true" || value == "false" else {
                    throw invalid("picker settings: FilterDiscoveryResults=\(shown(value)) is not true or false")
                }
                settings.filterDiscoveryResults = value == "true"
            default:
                throw invalid("picker settings: key \(shown(key)) is unknown; "
                    + "the keys are \(WirePickerSettings.discoveryTimeout), \(WirePickerSettings.filterDiscoveryResults)")
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
                    throw invalid("migration item \(shown(entry.name)): Bluetooth address \(shown(entry.bluetoothAddress)) "
                        + "is not AA:BB:CC:DD:EE:FF, optionally followed by /random")
                }
                identity = .bluetooth(device)
            case (true, false):
                var probe = DiscoveryDescriptor()
                do { try DescriptorFields.apply(key: WireAuthorizationSettings.ssid, value: entry.ssid, to: &probe) } catch {
                    throw invalid("migration item \(shown(entry.name)): \(error)")
                }
                guard let ssid = probe.ssid else {
                    throw invalid("migration item \(shown(entry.name)): SSID \(shown(entry.ssid)) gives no SSID; an SSID is 1 to 32 octets")
                }
                identity = .wifi(ssid)
            default:
                throw invalid("migration item \(shown(entry.name)): Bluetooth address \(shown(entry.bluetoothAddress)) and SSID "
                    + "\(shown(entry.ssid)): give exactly one of the two")
            }
            let descriptor: DiscoveryDescriptor
            do { descriptor = try DescriptorFields.descriptor(from: entry.descriptor) } catch {
                throw invalid("migration item \(shown(entry.name)): \(error)")
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
        // An empty name keeps the candidate's own; any other must be a name.
        for entry in shown where !entry.name.isEmpty {
            if let problem = GivenName.problem(entry.name) {
                throw invalid("shown candidate \(entry.candidate): name \(Self.shown(entry.name)) \(problem)")
            }
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
                    throw invalid("authorization settings: \(error)")
                }
                ssid = probe.ssid
            case WireAuthorizationSettings.bridgingIdentifier: bridging = value
            default:
                throw invalid("authorization settings: key \(shown(key)) is unknown; "
                    + "the keys are \(WireAuthorizationSettings.ssid), \(WireAuthorizationSettings.bridgingIdentifier)")
            }
        }
        return (ssid, bridging)
    }

    /// `s name, as options` (`RenameAccessory`, after the accessory).
    static func renaming(_ call: BusMessage, limits: AppLimits = AppLimits()) throws(AccessorySetupError) -> (name: String, renameSSID: Bool) {
        let reader = LimitedArguments(call, limits: limits)
        let name = try read { () throws(BusError) in try reader.string("a name") }
        let options = try read { () throws(BusError) in try reader.strings("rename options") }
        if let unknown = options.first(where: { $0 != RenameOptionWords.ssid }) { throw invalid(unknownRenameOption(unknown)) }
        return (name, options.contains(RenameOptionWords.ssid))
    }

    /// A name an app gives: visible text, and no control characters (`GivenName`, as `RenameAccessory`).
    static func checkName(_ name: String, _ what: String) throws(AccessorySetupError) {
        switch GivenName.problem(name) {
        case nil: return
        case .controlCharacter?: throw invalid("\(what)'s name holds control characters: \(shown(name)); a name may hold none")
        case let problem?: throw invalid("\(what)'s name \(shown(name)) \(problem)")
        }
    }

    /// An object path naming an accessory.
    static func accessory(_ call: BusMessage) throws(AccessorySetupError) -> AccessoryID {
        let path = try read { () throws(BusError) in try call.readObjectPath() }
        guard let id = BusNames.accessory(at: path) else { throw unknownAccessory(path) }
        return id
    }

    /// Not one of this app's accessories (another app's does not exist, as far as it can tell).
    static func unknownAccessory(_ what: String) -> AccessorySetupError {
        AccessorySetupError(.invalidRequest, reason: .message("unknown accessory \(DisplayText.escaped(String(what.prefix(80))))"))
    }

    /// `RenameAccessory`'s options and a display item's: the one word there is.
    static func unknownRenameOption(_ word: String) -> String {
        "rename option \(shown(word)) is unknown; the only one is \(RenameOptionWords.ssid)"
    }

    /// A value an app gave, as an error quotes it back.
    static func shown(_ value: String) -> String { DisplayText.excerpt(value) }

    static func invalid(_ message: String) -> AccessorySetupError {
        AccessorySetupError(.invalidRequest, reason: .message(message))
    }

    static func read<T>(_ body: () throws(BusError) -> T) throws(AccessorySetupError) -> T {
        do { return try body() } catch {
            // A limit names itself; so does anything else malformed (a key
            // given twice): wrong types never get here, refused with InvalidArgs before.
            throw invalid(error.message)
        }
    }
}
