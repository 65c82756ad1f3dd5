import AccessoryCore
import AccessorySystem

/// Reading the API's structured arguments. A malformed value is the
/// caller's mistake: `invalidRequest` naming the field, never a crash.
enum BusArguments {
    /// An `a{ss}` descriptor (keys as `DescriptorFields`).
    static func descriptor(_ call: BusMessage) throws(AccessorySetupError) -> DiscoveryDescriptor {
        let pairs = try read { () throws(BusError) in try call.readStringPairs() }
        do { return try DescriptorFields.descriptor(from: pairs) } catch {
            throw AccessorySetupError(.invalidRequest, reason: .message("\(error)"))
        }
    }

    /// `a(ssa{ss}asas)`: name, product image, descriptor, setup options, rename options.
    static func displayItems(_ call: BusMessage) throws(AccessorySetupError) -> [PickerDisplayItem] {
        var raw: [(name: String, image: String, descriptor: [(key: String, value: String)], setup: [String], rename: [String])] = []
        try read { () throws(BusError) in
            try call.readArray("(ssa{ss}asas)") { () throws(BusError) in
                try call.readContainer("r", "ssa{ss}asas") { () throws(BusError) in
                    raw.append((try call.readString(), try call.readString(), try call.readStringPairs(),
                                try call.readStrings(), try call.readStrings()))
                }
            }
        }
        var items: [PickerDisplayItem] = []
        for entry in raw {
            guard !entry.name.isEmpty else { throw invalid("a display item needs a name") }
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
    static func settings(_ call: BusMessage) throws(AccessorySetupError) -> PickerDisplaySettings {
        var settings = PickerDisplaySettings()
        for (key, value) in try read({ () throws(BusError) in try call.readStringPairs() }) {
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
    static func migrationItems(_ call: BusMessage) throws(AccessorySetupError) -> [MigrationItem] {
        var raw: [(name: String, address: String, ssid: String, descriptor: [(key: String, value: String)])] = []
        try read { () throws(BusError) in
            try call.readArray("(sssa{ss})") { () throws(BusError) in
                try call.readContainer("r", "sssa{ss}") { () throws(BusError) in
                    raw.append((try call.readString(), try call.readString(), try call.readString(), try call.readStringPairs()))
                }
            }
        }
        var items: [MigrationItem] = []
        for entry in raw {
            guard !entry.name.isEmpty else { throw invalid("a migration item needs a name") }
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
    static func shownCandidates(_ call: BusMessage) throws(AccessorySetupError) -> [(candidate: UInt32, name: String, image: String)] {
        var shown: [(candidate: UInt32, name: String, image: String)] = []
        try read { () throws(BusError) in
            try call.readArray("(uss)") { () throws(BusError) in
                try call.readContainer("r", "uss") { () throws(BusError) in
                    shown.append((try call.readUInt32(), try call.readString(), try call.readString()))
                }
            }
        }
        return shown
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
        do { return try body() } catch { throw invalid("bad arguments: \(error.message)") }
    }
}
