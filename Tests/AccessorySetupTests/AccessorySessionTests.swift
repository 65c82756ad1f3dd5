import AccessoryPlatform
import Testing
import TestSupport
@testable import AccessorySetup

/// AccessorySession end to end over a real dbus-daemon, against `FakeAgent`
/// (a stand-in for accessoryd until its service is merged).
@Suite(.timeLimit(.minutes(1)))
struct AccessorySessionTests {
    let bus: PrivateBus

    init() throws { bus = try PrivateBus() }

    static let lamp = FakeAgent.FakeAccessory(id: 0xA1, properties: [
        ("DisplayName", .string("Porch Lamp")),
        ("State", .string("authorized")),
        ("App", .string("acme-lights")),
        ("BluetoothAddress", .string("00:AA:01:01:00:01")),
        ("BluetoothAddressType", .string("random")),
        ("SSID", .bytes([0x4C, 0x61, 0x6D, 0x70, 0x00, 0xFF])),
        ("Descriptor", .pairs([.init("ServiceUUID", "180F"), .init("NameSubstring", "Lamp")])),
        ("BridgingIdentifier", .string("")),
        ("Present", .bool(true)),
        ("RSSI", .int32(-52)),
        ("SomethingNewer", .uint64(7)),
    ])

    static let sensor = FakeAgent.FakeAccessory(id: 0xB2, properties: [
        ("DisplayName", .string("Lab Sensor")),
        ("State", .string("awaitingAuthorization")),
        ("BluetoothAddress", .string("")),
        ("BluetoothAddressType", .string("")),
        ("SSID", .bytes(Array("ACME-1234".utf8))),
        ("Descriptor", .pairs([.init("SSIDPrefix", "ACME-")])),
    ])

    static let lampDescriptor = DiscoveryDescriptor(bluetoothServiceUUID: BluetoothUUID(uuid16: 0x180F), bluetoothNameSubstring: "Lamp")

    func next(_ events: inout AsyncStream<AccessoryEvent>.Iterator) async throws -> AccessoryEvent {
        try #require(await events.next())
    }

    @Test func activateReadsTheAppsAccessoriesFromTheirObjects() async throws {
        let agent = try await FakeAgent(address: bus.address, accessories: [Self.lamp])
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()

        let accessories = try await session.activate()

        let expected = Accessory(
            id: AccessoryID(0xA1), displayName: "Porch Lamp", state: .authorized,
            bluetoothIdentifier: BluetoothDeviceIdentifier(address: BluetoothAddress("00:AA:01:01:00:01")!, addressType: .random),
            ssid: SSID(bytes: [0x4C, 0x61, 0x6D, 0x70, 0x00, 0xFF]), descriptor: Self.lampDescriptor,
            bridgingIdentifier: nil, isPresent: true, rssi: -52)
        #expect(accessories == [expected])
        #expect(session.accessories == [expected])
        #expect(try await next(&events) == AccessoryEvent(.activated))
        #expect(agent.calls == ["Activate"])
        session.invalidate()
    }

    @Test func aPickedAccessoryIsAddedBeforeThePickerIsDismissed() async throws {
        let agent = try await FakeAgent(address: bus.address, picker: [.pick(Self.sensor)])
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()
        #expect(try await session.activate() == [])

        try await session.showPicker(
            for: [
                PickerDisplayItem(
                    name: "Porch lamp", productImagePath: "/usr/share/acme/lamp.png", descriptor: Self.lampDescriptor,
                    setupOptions: [.rename, .finishInApp]),
                PickerDisplayItem(
                    name: "Acme camera", descriptor: DiscoveryDescriptor(ssidPrefix: Array("ACME-".utf8) + [0xFF]),
                    renameOptions: .ssid),
            ],
            settings: PickerDisplaySettings(discoveryTimeout: .seconds(45), filterDiscoveryResults: true))

        #expect(agent.calls.last == """
            ShowPicker ["Porch lamp" "/usr/share/acme/lamp.png" {ServiceUUID=180F NameSubstring=Lamp} ["rename", "finishInApp"] []] \
            ["Acme camera" "" {SSIDPrefix=ACME-\\xff} [] ["ssid"]] {DiscoveryTimeout=45 FilterDiscoveryResults=true}
            """)
        #expect(try await next(&events).eventType == .activated)
        #expect(try await next(&events) == AccessoryEvent(.pickerDidPresent))
        let discovered = try await next(&events)
        #expect(discovered == AccessoryEvent(.accessoryDiscovered, discoveredAccessory: DiscoveredAccessory(
            candidate: 1, name: "Lab Lamp", identity: "00:AA:01:01:00:02/random", rssi: -48, advertisement: [0x02, 0x01, 0x06])))
        let added = try await next(&events)
        let sensor = Accessory(
            id: AccessoryID(0xB2), displayName: "Lab Sensor", state: .awaitingAuthorization,
            ssid: SSID("ACME-1234"), descriptor: DiscoveryDescriptor(ssidPrefix: Array("ACME-".utf8)))
        #expect(added == AccessoryEvent(.accessoryAdded, accessory: sensor))
        #expect(try await next(&events) == AccessoryEvent(.pickerDidDismiss))
        #expect(session.accessories == [sensor])
        session.invalidate()
    }

    @Test func aDeniedPickerThrowsUserCancelledAndSaysSoInItsEvent() async throws {
        let agent = try await FakeAgent(
            // The error as accessoryd names it in the signal: the full error name.
            address: bus.address,
            picker: [.dismiss(error: "org.accessoryagent.Error.userCancelled", message: "denied by accessoryctl (uid 0)")])
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()
        try await session.activate()

        let denied = AccessorySetupError(.userCancelled, reason: .message("denied by accessoryctl (uid 0)"))
        await #expect(throws: denied) {
            try await session.showPicker(for: [PickerDisplayItem(name: "Porch lamp", descriptor: Self.lampDescriptor)])
        }
        #expect(try await next(&events).eventType == .activated)
        #expect(try await next(&events) == AccessoryEvent(.pickerDidPresent))
        #expect(try await next(&events) == AccessoryEvent(.pickerDidDismiss, error: denied))
        #expect(agent.calls.count == 2)
        session.invalidate()
    }

    @Test func aRefusedRequestThrowsTheAgentsCodeAndFreesThePicker() async throws {
        let refusal = BusError(name: "org.accessoryagent.Error.invalidRequest", message: "service UUID FCD2 is not declared")
        let agent = try await FakeAgent(address: bus.address, picker: [.refuse(refusal), .dismiss(error: "discoveryTimeout", message: "")])
        let session = AccessorySession(busAddress: bus.address)
        try await session.activate()
        let item = PickerDisplayItem(name: "Porch lamp", descriptor: Self.lampDescriptor)

        await #expect(throws: AccessorySetupError(.invalidRequest, reason: .message("service UUID FCD2 is not declared"))) {
            try await session.showPicker(for: [item])
        }
        // The refusal left no picker waiting here: the next one reaches the agent.
        await #expect(throws: AccessorySetupError(.discoveryTimeout)) { try await session.showPicker(for: [item]) }
        #expect(agent.calls.count == 3)
        session.invalidate()
    }

    @Test func aSecondPickerWhileOneIsOpenIsAlreadyActive() async throws {
        let agent = try await FakeAgent(address: bus.address, picker: [.stayOpen])
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()
        try await session.activate()
        let item = PickerDisplayItem(name: "Porch lamp", descriptor: Self.lampDescriptor)
        let first = Task { try await session.showPicker(for: [item]) }
        #expect(try await next(&events).eventType == .activated)
        #expect(try await next(&events).eventType == .pickerDidPresent)

        await #expect(throws: AccessorySetupError(.pickerAlreadyActive)) { try await session.showPicker(for: [item]) }
        #expect(agent.calls.count == 2)

        // Invalidating the session ends the open picker with `invalidated`.
        session.invalidate()
        await #expect(throws: AccessorySetupError(.invalidated)) { try await first.value }
    }

    @Test func accessoryCallsPutTheContractsArgumentsOnTheWire() async throws {
        let agent = try await FakeAgent(address: bus.address, accessories: [Self.lamp, Self.sensor])
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()
        let accessories = try await session.activate()
        #expect(try await next(&events).eventType == .activated)
        let lamp = try #require(accessories.first)
        let sensor = try #require(accessories.last)
        let discovered = DiscoveredAccessory(candidate: 4, name: "Lamp", identity: "x", rssi: -40, advertisement: [])

        try await session.updatePicker(showing: [DiscoveredDisplayItem(discovered), DiscoveredDisplayItem(discovered, name: "Back lamp", productImagePath: "/img")])
        try await session.finishPickerDiscovery()
        try await session.finishAuthorization(for: sensor, settings: AccessorySettings(ssid: SSID(bytes: Array("ACME-1234".utf8) + [0x0A]), bridgingIdentifier: "bridge-7"))
        try await session.failAuthorization(for: sensor)
        try await session.updateAuthorization(for: lamp, descriptor: DiscoveryDescriptor(bluetoothCompanyIdentifier: 0x004C, bluetoothNameSubstring: "Lamp"))
        try await session.migrate([
            MigrationDisplayItem(
                name: "Old lamp",
                bluetoothIdentifier: BluetoothDeviceIdentifier(address: BluetoothAddress("C0:11:22:33:44:55")!, addressType: .random),
                descriptor: Self.lampDescriptor),
            MigrationDisplayItem(name: "Old camera", ssid: SSID("ACME-\\1"), descriptor: DiscoveryDescriptor(ssid: SSID("ACME-\\1"))),
        ])

        let lampPath = "/org/accessoryagent/accessory/00000000000000a1"
        let sensorPath = "/org/accessoryagent/accessory/00000000000000b2"
        #expect(agent.calls == [
            "Activate",
            "UpdatePicker 4 \"Lamp\" \"\", 4 \"Back lamp\" \"/img\"",
            "FinishPickerDiscovery",
            "FinishAuthorization \(sensorPath) {SSID=ACME-1234\\x0a BridgingIdentifier=bridge-7}",
            "FailAuthorization \(sensorPath)",
            "UpdateAuthorization \(lampPath) {CompanyIdentifier=0x004C NameSubstring=Lamp}",
            "Migrate \"Old lamp\" \"C0:11:22:33:44:55/random\" \"\" {ServiceUUID=180F NameSubstring=Lamp}, "
                + "\"Old camera\" \"\" \"ACME-\\\\1\" {SSID=ACME-\\\\1}",
        ])
        #expect(try await next(&events) == AccessoryEvent(.migrationComplete))
        session.invalidate()
    }

    @Test func renamingAndRemovingKeepAccessoriesCurrent() async throws {
        let agent = try await FakeAgent(address: bus.address, accessories: [Self.lamp, Self.sensor])
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()
        let accessories = try await session.activate()
        #expect(try await next(&events).eventType == .activated)
        let lamp = try #require(accessories.first)

        try await session.renameAccessory(lamp, to: "Garden Lamp", options: .ssid)
        let changed = try await next(&events)
        #expect(changed.eventType == .accessoryChanged)
        #expect(changed.accessory?.displayName == "Garden Lamp")
        #expect(session.accessories.map(\.displayName) == ["Garden Lamp", "Lab Sensor"])

        try await session.removeAccessory(lamp)
        let removed = try await next(&events)
        #expect(removed.eventType == .accessoryRemoved)
        // The object is gone; the event carries what the session knew of it.
        #expect(removed.accessory?.id == lamp.id)
        #expect(removed.accessory?.displayName == "Garden Lamp")
        #expect(session.accessories.map(\.displayName) == ["Lab Sensor"])
        #expect(agent.calls.suffix(2) == [
            "RenameAccessory /org/accessoryagent/accessory/00000000000000a1 \"Garden Lamp\" [\"ssid\"]",
            "RemoveAccessory /org/accessoryagent/accessory/00000000000000a1",
        ])
        session.invalidate()
    }

    @Test func invalidateEndsTheEventsAndLaterCallsThrowInvalidated() async throws {
        let agent = try await FakeAgent(address: bus.address)
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()
        try await session.activate()
        #expect(try await next(&events).eventType == .activated)

        session.invalidate()
        // At once: this call never reaches the agent.
        await #expect(throws: AccessorySetupError(.invalidated)) { try await session.finishPickerDiscovery() }

        #expect(try await next(&events) == AccessoryEvent(.invalidated))
        #expect(await events.next() == nil)
        #expect(agent.calls == ["Activate", "Invalidate"])
        await #expect(throws: AccessorySetupError(.invalidated)) {
            try await session.showPicker(for: [PickerDisplayItem(name: "Porch lamp", descriptor: Self.lampDescriptor)])
        }
        await #expect(throws: AccessorySetupError(.invalidated)) { try await session.activate() }
    }

    @Test func theAgentEndingTheSessionEndsItHere() async throws {
        let agent = try await FakeAgent(address: bus.address, picker: [.stayOpen])
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()
        try await session.activate()
        let picker = Task { try await session.showPicker(for: [PickerDisplayItem(name: "Porch lamp", descriptor: Self.lampDescriptor)]) }
        #expect(try await next(&events).eventType == .activated)
        #expect(try await next(&events).eventType == .pickerDidPresent)

        agent.emit("Invalidated")

        #expect(try await next(&events) == AccessoryEvent(.invalidated))
        #expect(await events.next() == nil)
        await #expect(throws: AccessorySetupError(.invalidated)) { try await picker.value }
        await #expect(throws: AccessorySetupError(.invalidated)) { try await session.finishPickerDiscovery() }
    }

    @Test func anAccessoryTheAdministratorRemovedLeavesTheSession() async throws {
        let agent = try await FakeAgent(address: bus.address, accessories: [Self.lamp, Self.sensor])
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()
        try await session.activate()
        #expect(try await next(&events).eventType == .activated)

        agent.emit("AccessoryRemoved") { $0.append(objectPath: "/org/accessoryagent/accessory/00000000000000b2") }

        let removed = try await next(&events)
        #expect(removed.eventType == .accessoryRemoved)
        #expect(removed.accessory?.displayName == "Lab Sensor")
        #expect(session.accessories.map(\.displayName) == ["Porch Lamp"])
        session.invalidate()
    }

    @Test func aJoinAccessorydEndedOnItsOwnComesOnItsOwnStream() async throws {
        let agent = try await FakeAgent(address: bus.address, accessories: [Self.lamp])
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()
        var leaves = session.hotspotLeaves.makeAsyncIterator()
        try await session.activate()
        #expect(try await next(&events).eventType == .activated)

        // A wrong signature and a path that names no accessory are skipped.
        agent.emit("HotspotLeft") { $0.append("/org/accessoryagent/accessory/00000000000000a1").append("as text") }
        agent.emit("HotspotLeft") { $0.append(objectPath: "/org/accessoryagent/session/1").append("not an accessory") }
        agent.emit("HotspotLeft") {
            $0.append(objectPath: "/org/accessoryagent/accessory/00000000000000a1")
                .append("the link dropped (reason 3) and was not back within 15 s")
        }
        agent.emit("PickerDidPresent")

        #expect(await leaves.next() == HotspotLeft(
            accessory: AccessoryID(0xA1), reason: "the link dropped (reason 3) and was not back within 15 s"))
        // Not an ASK event: the event stream goes on with the next one.
        #expect(try await next(&events).eventType == .pickerDidPresent)
        session.invalidate()
        #expect(await leaves.next() == nil)
    }

    @Test func setupSignalsCarryTheirAccessoryOrError() async throws {
        let agent = try await FakeAgent(address: bus.address, accessories: [Self.sensor])
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()
        let sensor = try #require(try await session.activate().first)
        #expect(try await next(&events).eventType == .activated)
        let path = "/org/accessoryagent/accessory/00000000000000b2"

        for member in ["PickerSetupRename", "PickerSetupPairing", "PickerSetupBridging"] {
            agent.emit(member) { $0.append(objectPath: path) }
        }
        agent.emit("PickerSetupFailed") { $0.append("connectionFailed").append("the hotspot did not answer") }
        agent.emit("SomethingFromTheFuture") { $0.append("ignored") }
        agent.emit("AccessoryDiscovered") { $0.append("the wrong signature") }
        agent.emit("PickerDidDismiss") { $0.append("connectionFailed").append("") }

        #expect(try await next(&events) == AccessoryEvent(.pickerSetupRename, accessory: sensor))
        #expect(try await next(&events) == AccessoryEvent(.pickerSetupPairing, accessory: sensor))
        #expect(try await next(&events) == AccessoryEvent(.pickerSetupBridging, accessory: sensor))
        #expect(try await next(&events) == AccessoryEvent(
            .pickerSetupFailed, error: AccessorySetupError(.connectionFailed, reason: .message("the hotspot did not answer"))))
        // Unknown and malformed signals are skipped, not fatal.
        #expect(try await next(&events) == AccessoryEvent(.pickerDidDismiss, error: AccessorySetupError(.connectionFailed)))
        session.invalidate()
    }

    @Test func signalsFromAnyoneButTheAgentAreIgnored() async throws {
        let agent = try await FakeAgent(address: bus.address)
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()
        try await session.activate()
        #expect(try await next(&events).eventType == .activated)
        // Another connection on the bus sends the session's client a forged dismissal.
        let client = try #require(agent.clientName)
        try await Impostor.send(on: bus.address) { connection in
            try connection.emitSignal(
                path: FakeAgent.sessionPath, interface: "org.accessoryagent.Session1", member: "PickerDidDismiss",
                destination: client) { $0.append("userCancelled").append("forged") }
        }
        // The agent's own signal, sent after the forged one, is the next event.
        agent.emit("MigrationComplete")
        #expect(try await next(&events) == AccessoryEvent(.migrationComplete))
        session.invalidate()
    }

    @Test func broadcastLookAlikeSignalsAreIgnoredToo() async throws {
        let agent = try await FakeAgent(address: bus.address)
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()
        try await session.activate()
        #expect(try await next(&events).eventType == .activated)
        // A look-alike sent to everyone, on the session's path and interface.
        try await Impostor.send(on: bus.address) { connection in
            try connection.emitSignal(
                path: FakeAgent.sessionPath, interface: "org.accessoryagent.Session1", member: "PickerDidDismiss"
            ) { $0.append("userCancelled").append("forged") }
        }
        agent.emit("MigrationComplete")
        #expect(try await next(&events) == AccessoryEvent(.migrationComplete))
        session.invalidate()
    }

    @Test func aNewOwnerOfTheNameThatOpensNoSessionEndsIt() async throws {
        let agent = try await FakeAgent(address: bus.address)
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()
        try await session.activate()
        #expect(try await next(&events).eventType == .activated)
        let client = try #require(agent.clientName)

        // The agent stays on the bus but gives up the name; a newcomer takes
        // it, speaks as the session's agent would, and serves no session.
        try await agent.releaseName()
        try await Impostor.send(on: bus.address) { connection in
            try connection.requestName("org.accessoryagent")
            try connection.emitSignal(
                path: FakeAgent.sessionPath, interface: "org.accessoryagent.Session1", member: "MigrationComplete",
                destination: client) { _ in }
        }

        // Its signal is not the session's; the session tried to open a new one, in vain.
        let ended = try await next(&events)
        #expect(ended.eventType == .invalidated)
        #expect(ended.error?.code == .invalidated)
        #expect("\(ended)".contains("accessoryd restarted, but the session could not be activated again"), "\(ended)")
        #expect(await events.next() == nil)
    }

    @Test func invalidatingWhileTheAgentIsAwayEndsTheSession() async throws {
        let agent = try await FakeAgent(address: bus.address, accessories: [Self.lamp])
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()
        try await session.activate()
        #expect(try await next(&events).eventType == .activated)
        agent.stop()
        let restarting = AccessorySetupError(.invalidRequest, reason: .message(SessionCore.restartingReason))
        while true {
            do throws(AccessorySetupError) {
                try await session.finishPickerDiscovery()
            } catch where error == restarting {
                break
            } catch {}
            try await Task.sleep(for: .milliseconds(10))
        }

        session.invalidate()

        #expect(try await next(&events) == AccessoryEvent(.invalidated))
        #expect(await events.next() == nil)
        #expect(session.accessories.map(\.displayName) == ["Porch Lamp"])
    }
    @Test func invalidatingBeforeActivatingEndsTheEvents() async {
        let session = AccessorySession(busAddress: bus.address)
        session.invalidate()
        var events = session.events.makeAsyncIterator()
        #expect(await events.next() == AccessoryEvent(.invalidated))
        #expect(await events.next() == nil)
        await #expect(throws: AccessorySetupError(.invalidated)) { try await session.activate() }
    }

    @Test func activatingTwiceIsAnInvalidRequest() async throws {
        _ = try await FakeAgent(address: bus.address)
        let session = AccessorySession(busAddress: bus.address)
        try await session.activate()
        await #expect(throws: AccessorySetupError(.invalidRequest, reason: .message("the session is already activated"))) {
            try await session.activate()
        }
        session.invalidate()
    }

    @Test func releasingTheSessionClosesItsConnection() async throws {
        let agent = try await FakeAgent(address: bus.address)
        var session: AccessorySession? = AccessorySession(busAddress: bus.address)
        try await session?.activate()
        #expect(!agent.clientLeft)

        session = nil

        // The agent learns it from the bus; how soon is the bus's business.
        while !agent.clientLeft { try await Task.sleep(for: .milliseconds(10)) }
        #expect(agent.calls == ["Activate"])
    }

    @Test func callsBeforeActivateAreInvalidRequests() async throws {
        let session = AccessorySession(busAddress: bus.address)
        await #expect(throws: AccessorySetupError(.invalidRequest, reason: .message("the session is not activated"))) {
            try await session.finishPickerDiscovery()
        }
    }

    @Test func withoutAnAgentActivationFailsAndMayBeTriedAgain() async throws {
        let session = AccessorySession(busAddress: bus.address)
        do {
            try await session.activate()
            Issue.record("activate succeeded without an agent on the bus")
        } catch {
            #expect(error.code == .unknown)
            #expect("\(error)".contains("org.freedesktop.DBus.Error.ServiceUnknown"))
        }
        let agent = try await FakeAgent(address: bus.address, accessories: [Self.lamp])
        #expect(try await session.activate().map(\.displayName) == ["Porch Lamp"])
        #expect(agent.calls == ["Activate"])
        session.invalidate()
    }

    @Test func theAgentLeavingTheBusAndComingBackActivatesTheSessionAgain() async throws {
        let agent = try await FakeAgent(address: bus.address, accessories: [Self.lamp], picker: [.stayOpen])
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()
        try await session.activate()
        let picker = Task { try await session.showPicker(for: [PickerDisplayItem(name: "Porch lamp", descriptor: Self.lampDescriptor)]) }
        #expect(try await next(&events).eventType == .activated)
        #expect(try await next(&events).eventType == .pickerDidPresent)

        agent.stop()

        // The picker went with it; the session did not.
        await #expect(throws: AccessorySetupError(.unknown, reason: .message("accessoryd restarted; the picker is gone"))) {
            try await picker.value
        }
        let back = try await FakeAgent(address: bus.address, accessories: [Self.lamp, Self.sensor])
        #expect(try await next(&events) == AccessoryEvent(.serviceRestarted))
        #expect(session.accessories.map(\.displayName) == ["Porch Lamp", "Lab Sensor"])
        #expect(back.calls == ["Activate"])
        try await session.finishPickerDiscovery()
        #expect(back.calls == ["Activate", "FinishPickerDiscovery"])
        session.invalidate()
        #expect(try await next(&events).eventType == .invalidated)
    }
}
