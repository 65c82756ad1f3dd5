import AccessoryCore
import AccessoryWire
import Testing
@testable import AccessoryDaemon
@testable import AccessorySetup
@testable import AccessoryPlatform

/// Every argument type of the API, through a real sealed sd-bus message:
/// what one end writes with its encoder, the other end reads with its
/// decoder, and gets back what was meant. Calls go from the client library
/// (AccessorySetup) to the daemon's readers (BusArguments, under the app
/// limits); replies and signals from the daemon's writers to the readers of
/// the client library and accessoryctl.
@Suite struct RoundTripTests {
    static let lamp: DiscoveryDescriptor = {
        var descriptor = DiscoveryDescriptor()
        descriptor.bluetoothServiceUUID = BluetoothUUID(uuid16: 0x180F)
        descriptor.bluetoothNameSubstring = "Lamp"
        descriptor.bluetoothManufacturerDataBlob = [0x4C, 0x00]
        descriptor.bluetoothManufacturerDataMask = [0xFF, 0xFF]
        return descriptor
    }()
    static let hotspot: DiscoveryDescriptor = {
        var descriptor = DiscoveryDescriptor()
        descriptor.ssidPrefix = Array("Acme-".utf8)
        return descriptor
    }()
    static let accessory = AccessoryID(0xA1)
    static let random = BluetoothDeviceIdentifier(address: HardwareAddress("C0:11:22:33:44:55")!, addressType: .random)

    // MARK: Calls: the client library's encoders, the daemon's decoders

    @Test func showPickersItemsAndSettings() throws {
        let items = [
            PickerDisplayItem(name: "Lamp", productImagePath: "/usr/share/acme/lamp.png", descriptor: Self.lamp,
                              setupOptions: [.rename, .confirmAuthorization, .finishInApp], renameOptions: [.ssid]),
            PickerDisplayItem(name: "Käfer \u{1F41E}", descriptor: Self.hotspot),
        ]
        let settings = PickerDisplaySettings(discoveryTimeout: .seconds(45), filterDiscoveryResults: true)
        let call = try SealedMessage.call { $0.append(items: items).append(settings: settings) }
        #expect(call.signature == Session1.showPicker.inputSignature)
        // As the service reads them: one budget for the call's arguments together.
        let reader = LimitedArguments(call, limits: AppLimits())
        #expect(try BusArguments.displayItems(reader) == items)
        #expect(try BusArguments.settings(reader) == settings)
    }

    @Test func everyPickerTimeoutTravels() throws {
        for timeout: PickerDisplaySettings.DiscoveryTimeout in [.short, .medium, .long, .unbounded, .seconds(1)] {
            let settings = PickerDisplaySettings(discoveryTimeout: timeout)
            let call = try SealedMessage.call { $0.append(settings: settings) }
            #expect(try BusArguments.settings(call) == settings)
        }
    }

    @Test func anArrayOverItsLimitIsStoppedByTheSameReader() throws {
        let item = PickerDisplayItem(name: "Lamp", descriptor: Self.lamp)
        let call = try SealedMessage.call { $0.append(items: [item, item, item]) }
        var limits = AppLimits()
        limits.displayItems = 2
        #expect(throws: AccessorySetupError(.invalidRequest, reason: .message(
            "display items of more than 2: over the limit DisplayItems=2"))) {
            try BusArguments.displayItems(call, limits: limits)
        }
    }

    @Test func updatePickersShownCandidates() throws {
        let found = DiscoveredAccessory(candidate: 7, name: "Lamp 2", identity: "C0:11:22:33:44:55/random", rssi: -60, advertisement: [])
        let shown = [DiscoveredDisplayItem(found), DiscoveredDisplayItem(found, name: "Hall lamp", productImagePath: "/img/hall.png")]
        let call = try SealedMessage.call { $0.append(shown: shown) }
        #expect(call.signature == Session1.updatePicker.inputSignature)
        let read = try BusArguments.shownCandidates(call)
        #expect(read.map(\.candidate) == [7, 7])
        #expect(read.map(\.name) == ["Lamp 2", "Hall lamp"])
        #expect(read.map(\.image) == ["", "/img/hall.png"])
    }

    @Test func migratesItems() throws {
        let ssid = try #require(SSID(bytes: [0x41, 0x63, 0x6D, 0x65, 0x00, 0xFF]))
        let items = [
            MigrationDisplayItem(name: "Porch", bluetoothIdentifier: Self.random, descriptor: Self.lamp),
            MigrationDisplayItem(name: "Camera", ssid: ssid, descriptor: Self.hotspot),
        ]
        let call = try SealedMessage.call { $0.append(migrationItems: items) }
        #expect(call.signature == Session1.migrate.inputSignature)
        #expect(try BusArguments.migrationItems(call) == [
            MigrationItem(name: "Porch", identity: .bluetooth(Self.random), descriptor: Self.lamp),
            MigrationItem(name: "Camera", identity: .wifi(ssid), descriptor: Self.hotspot),
        ])
    }

    @Test func finishAuthorizationsAccessoryAndSettings() throws {
        let ssid = try #require(SSID(bytes: Array("Acme-1234\t".utf8)))
        for settings in [AccessorySettings(), AccessorySettings(ssid: ssid, bridgingIdentifier: "bridge-7")] {
            let call = try SealedMessage.call {
                $0.append(objectPath: BusNames.path(of: Self.accessory)).append(accessorySettings: settings)
            }
            #expect(call.signature == Session1.finishAuthorization.inputSignature)
            #expect(try BusArguments.accessory(call) == Self.accessory)
            let read = try BusArguments.authorizationSettings(call)
            #expect(read.ssid == settings.ssid)
            #expect(read.bridgingIdentifier == settings.bridgingIdentifier)
        }
    }

    @Test func updateAuthorizationsDescriptor() throws {
        for descriptor in [Self.lamp, Self.hotspot] {
            let call = try SealedMessage.call {
                $0.append(objectPath: BusNames.path(of: Self.accessory)).append(descriptor: descriptor)
            }
            #expect(call.signature == Session1.updateAuthorization.inputSignature)
            #expect(try BusArguments.accessory(call) == Self.accessory)
            #expect(try BusArguments.descriptor(call) == descriptor)
        }
    }

    @Test func renameAccessorysNameAndOptions() throws {
        for options: AccessoryRenameOptions in [[], .ssid] {
            let call = try SealedMessage.call {
                $0.append(objectPath: BusNames.path(of: Self.accessory)).append(renaming: "Front porch", options: options)
            }
            #expect(call.signature == Session1.renameAccessory.inputSignature)
            #expect(try BusArguments.accessory(call) == Self.accessory)
            let read = try BusArguments.renaming(call)
            #expect(read.name == "Front porch")
            #expect(read.renameSSID == options.contains(.ssid))
        }
    }

    // MARK: Replies and signals: the daemon's encoders, the clients' decoders

    @Test func adminListings() throws {
        let requests = [
            WireRequestRow(number: 1, app: "sensor-logger", kind: WireRequestRow.pickerKind, items: ["Lamp", "Käfer"], candidateCount: 2),
            WireRequestRow(number: 2, app: "cam", kind: WireRequestRow.migrationKind, items: [], candidateCount: 0),
        ]
        let candidates = [
            WireCandidateRow(number: 1, item: "Lamp", name: "", kind: "bluetooth", identity: "C0:11:22:33:44:55/random", rssi: -61),
            WireCandidateRow(number: 2, item: "Cam", name: "Cam", kind: "wifi", identity: "Acme-\\xff", rssi: BusRSSI.unknown),
        ]
        let accessories = [
            WireAccessoryRow(id: "00000000000000a1", app: "sensor-logger", name: "Porch", state: "authorized", identity: "C0:11:22:33:44:55",
                             present: true, secondsSinceHeard: 4),
            WireAccessoryRow(id: "00000000000000b2", app: "sensor-logger", name: "Shed", state: "authorized", identity: "C0:11:22:33:44:66",
                             present: false, secondsSinceHeard: -1),
        ]
        let requestReply = try SealedMessage.call { $0.append(records: requests) }
        #expect(requestReply.signature == Admin1.listRequests.outputSignature)
        #expect(try PlainArguments(requestReply).records(of: WireRequestRow.self, "requests") == requests)
        let candidateReply = try SealedMessage.call { $0.append(records: candidates) }
        #expect(candidateReply.signature == Admin1.listCandidates.outputSignature)
        #expect(try PlainArguments(candidateReply).records(of: WireCandidateRow.self, "candidates") == candidates)
        let accessoryReply = try SealedMessage.call { $0.append(records: accessories) }
        #expect(accessoryReply.signature == Admin1.listAccessories.outputSignature)
        #expect(try PlainArguments(accessoryReply).records(of: WireAccessoryRow.self, "accessories") == accessories)
    }

    @Test func takeEventsQueue() throws {
        let events = [
            WireQueuedEvent(type: "activated", details: [("Accessories", "/org/accessoryagent/accessory/00000000000000a1")]),
            WireQueuedEvent(type: "pickerDidDismiss", details: [("Error", BusErrorNames.name(of: .userCancelled)), ("Message", "denied")]),
            WireQueuedEvent(type: "migrationComplete", details: []),
        ]
        let reply = try SealedMessage.call { $0.append(records: events) }
        #expect(reply.signature == Session1.takeEvents.outputSignature)
        let read = try PlainArguments(reply).records(of: WireQueuedEvent.self, "events")
        #expect(read.map(\.type) == events.map(\.type))
        #expect(read.map { $0.details.map { "\($0.key)=\($0.value)" } } == events.map { $0.details.map { "\($0.key)=\($0.value)" } })
    }

    @Test func anAccessorysProperties() throws {
        let ssid = try #require(SSID("Acme-1234"))
        var values = WireAccessoryProperties()
        values.displayName = "Porch"
        values.state = "authorized"
        values.app = "sensor-logger"
        values.bluetoothAddress = "C0:11:22:33:44:55"
        values.bluetoothAddressType = "random"
        values.ssid = ssid.bytes
        values.descriptor = DescriptorFields.fields(of: Self.lamp).map { BusVariant.Pair($0.key, $0.value) }
        values.bridgingIdentifier = "bridge-7"
        values.present = true
        values.rssi = BusRSSI.encode(-58)
        let reply = try SealedMessage.call { $0.append(properties: values.variants) }
        #expect(reply.signature == FreedesktopInterfaces.getAll.outputSignature)
        let read = try WireAccessoryProperties.read(reply)
        #expect(read == values)
        #expect(try read.accessory(id: Self.accessory) == Accessory(
            id: Self.accessory, displayName: "Porch", state: .authorized, bluetoothIdentifier: Self.random, ssid: ssid,
            descriptor: Self.lamp, bridgingIdentifier: "bridge-7", isPresent: true, rssi: -58))
        // Every property is one `Accessory1` declares, with its declared type.
        #expect(values.variants.map(\.0) == Accessory1.interface.properties.map(\.name))
        #expect(values.variants.map(\.1.signature) == Accessory1.interface.properties.map(\.type.signature))
    }

    @Test func presenceAndAdvertisementSignals() throws {
        let path = BusNames.path(of: Self.accessory)
        let presence = try SealedMessage.signal(path: path, interface: BusNames.properties, member: FreedesktopInterfaces.propertiesChanged.name) {
            $0.append(BusNames.accessory)
                .append(properties: [(Accessory1.present.name, .bool(true)), (Accessory1.rssi.name, .int32(BusRSSI.encode(-70)))])
                .append(strings: [])
        }
        #expect(presence.signature == FreedesktopInterfaces.propertiesChanged.signature)
        #expect(try AccessorySignal.read(presence) == .presence(Self.accessory, .init(present: true, rssi: -70)))

        let advertisement = try SealedMessage.signal(path: path, interface: BusNames.accessory, member: Accessory1.advertisement.name) {
            $0.append(BusRSSI.encode(nil)).append(bytes: [0x02, 0x01, 0x06])
        }
        #expect(advertisement.signature == Accessory1.advertisement.signature)
        #expect(try AccessorySignal.read(advertisement)
            == .advertisement(AccessoryAdvertisement(accessory: Self.accessory, rssi: nil, data: [0x02, 0x01, 0x06])))
    }

    @Test func sessionSignals() throws {
        let path = BusNames.path(of: Self.accessory)
        let discovered = WireDiscoveredAccessory(candidate: 3, name: "Lamp", identity: "C0:11:22:33:44:55/random",
                                                 rssi: BusRSSI.encode(-61), advertisement: [0x02, 0x01, 0x06])
        let signal = try SealedMessage.signal(path: BusNames.path(ofSession: 1), interface: BusNames.session,
                                              member: Session1.accessoryDiscovered.name) { discovered.append(to: $0) }
        #expect(signal.signature == Session1.accessoryDiscovered.signature)
        #expect(try SessionSignal.read(Session1.accessoryDiscovered.name, from: signal) == .accessoryDiscovered(DiscoveredAccessory(
            candidate: 3, name: "Lamp", identity: "C0:11:22:33:44:55/random", rssi: -61, advertisement: [0x02, 0x01, 0x06])))

        let dismissed = try SealedMessage.signal(path: BusNames.path(ofSession: 1), interface: BusNames.session,
                                                 member: Session1.pickerDidDismiss.name) {
            $0.append(BusErrorNames.name(of: .discoveryTimeout)).append("nothing found")
        }
        #expect(dismissed.signature == Session1.pickerDidDismiss.signature)
        let event = try #require(try SessionSignal.read(Session1.pickerDidDismiss.name, from: dismissed)).event(accessory: nil)
        #expect(event.error == AccessorySetupError(.discoveryTimeout, reason: .message("nothing found")))

        let left = try SealedMessage.signal(path: BusNames.path(ofSession: 1), interface: BusNames.session,
                                            member: Session1.hotspotLeft.name) { $0.append(objectPath: path).append("link lost") }
        #expect(left.signature == Session1.hotspotLeft.signature)
        #expect(try HotspotLeft.read(from: left) == HotspotLeft(accessory: Self.accessory, reason: "link lost"))
    }

    @Test func everyErrorCodeTravelsByName() {
        for code in AccessorySetupError.Code.allCases {
            let error = BusError(name: BusErrorNames.name(of: code), message: "why")
            #expect(AccessorySetupError(error) == AccessorySetupError(code, reason: .message("why")))
        }
        // Anyone else's error is unknown, keeping its name.
        #expect(AccessorySetupError(BusError(name: BusErrorNames.accessDenied, message: "no")).code == .unknown)
    }

    /// Each session event the daemon queues goes out as the signal `Session1` declares.
    @Test func everyEventTypeNamesADeclaredSignal() {
        for type in AccessoryEventType.signalled {
            #expect(Session1.interface.signal(type.signalName) != nil, "\(type)")
        }
    }
}
