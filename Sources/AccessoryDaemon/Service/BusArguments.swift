import AccessoryCore
import AccessoryPlatform

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
        var raw: [(name: String, image: String, descriptor: [(key: String, value: String)], setup: [String], rename: [String])] = []
        try read { () throws(BusError) in
            try reader.array("(ssa{ss}asas)", max: .displayItems, "display items") { () throws(BusError) in
                try reader.container("r", "ssa{ss}asas") { () throws(BusError) in
                    raw.append((try reader.string("a display item's name"), try reader.string("a product image path"),
                                try reader.pairs("a descriptor"), try reader.strings("setup options"),
                                try reader.strings("rename options")))
                }
            }
        }
        var items: [PickerDisplayItem] = []
        for entry in raw {
            try checkName(entry.name, "a display item")
            let descriptor: DiscoveryDescriptor
            do { descriptor = try DescriptorFields.descriptor(from: entry.descriptor) } catch {
                throw invalid("\(entry.name): \(error)")
            }
            var setup: PickerDisplayItem.SetupOptions = []
            for word in entry.setup {
                guard let option = PickerDisplayItem.SetupOptions.names.first(where: { $0.name == word })?.option else {
                    throw invalid("\(entry.name): unknown setup option \(word) (rename, confirmAuthorization, finishInApp)")
                }
                setup.insert(option)
            }
            var rename: PickerDisplayItem.RenameOptions = []
            for word in entry.rename {
                guard word == "ssid" else { throw invalid("\(entry.name): unknown rename option \(word) (ssid)") }
                rename.insert(.ssid)
            }
            items.append(PickerDisplayItem(name: entry.name, productImagePath: entry.image.isEmpty ? nil : entry.image,
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
            case "DiscoveryTimeout":
                guard let timeout = PickerDisplaySettings.DiscoveryTimeout(value) else {
                    throw invalid("DiscoveryTimeout=\(value): short, medium, long, unbounded or seconds")
                }
                settings.discoveryTimeout = timeout
            case "FilterDiscoveryResults":
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
        var raw: [(name: String, address: String, ssid: String, descriptor: [(key: String, value: String)])] = []
        let reader = LimitedArguments(call, limits: limits)
        try read { () throws(BusError) in
            try reader.array("(sssa{ss})", max: .migrationItems, "migration items") { () throws(BusError) in
                try reader.container("r", "sssa{ss}") { () throws(BusError) in
                    raw.append((try reader.string("a migration item's name"), try reader.string("a Bluetooth address"),
                                try reader.string("an SSID"), try reader.pairs("a descriptor")))
                }
            }
        }
        var items: [MigrationItem] = []
        for entry in raw {
            try checkName(entry.name, "a migration item")
            let identity: DeviceIdentity
            switch (entry.address.isEmpty, entry.ssid.isEmpty) {
            case (false, true):
                guard let device = BluetoothDeviceIdentifier(parsing: entry.address) else {
                    throw invalid("\(entry.name): \(entry.address) is not AA:BB:CC:DD:EE:FF[/random]")
                }
                identity = .bluetooth(device)
            case (true, false):
                var probe = DiscoveryDescriptor()
                do { try DescriptorFields.apply(key: "SSID", value: entry.ssid, to: &probe) } catch {
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
        var shown: [(candidate: UInt32, name: String, image: String)] = []
        let reader = LimitedArguments(call, limits: limits)
        try read { () throws(BusError) in
            try reader.array("(uss)", max: .displayItems, "shown candidates") { () throws(BusError) in
                try reader.container("r", "uss") { () throws(BusError) in
                    shown.append((try reader.uint32(), try reader.string("a candidate's display name"),
                                  try reader.string("a product image path")))
                }
            }
        }
        for entry in shown where DisplayText.hasControlCharacters(entry.name) {
            throw invalid("a candidate's display name holds control characters")
        }
        return shown
    }

    /// `a{ss}` authorization settings (`FinishAuthorization`).
    static func pairs(_ call: BusMessage, _ what: String, limits: AppLimits = AppLimits()) throws(AccessorySetupError) -> [(key: String, value: String)] {
        let reader = LimitedArguments(call, limits: limits)
        return try read { () throws(BusError) in try reader.pairs(what) }
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
