import AccessoryPlatform
import Testing
import TestSupport
@testable import AccessorySetup

/// Presence and advertisements of the app's accessories, end to end over a
/// real dbus-daemon against `FakeAgent`: the signals accessoryd sends on an
/// accessory's object, unicast to its app.
@Suite(.timeLimit(.minutes(1)))
struct AccessoryFollowingTests {
    let bus: PrivateBus

    init() throws { bus = try PrivateBus() }

    static let lamp = AccessorySessionTests.lamp
    static let sensor = AccessorySessionTests.sensor
    static let lampPath = "/org/accessoryagent/accessory/00000000000000a1"
    static let sensorPath = "/org/accessoryagent/accessory/00000000000000b2"
    static let properties = "org.freedesktop.DBus.Properties"
    static let accessory = "org.accessoryagent.Accessory1"

    /// `PropertiesChanged(s interface, a{sv} changed, as invalidated)`.
    static func changed(
        _ values: [(String, BusVariant)], invalidated: [String] = [], interface: String = accessory
    ) -> @Sendable (BusReply) -> Void {
        let values = values.map { Pair(name: $0.0, value: $0.1) }
        return { reply in
            reply.append(interface)
            reply.container("a", "{sv}") { array in
                for pair in values { array.container("e", "sv") { $0.append(pair.name).append(variant: pair.value) } }
            }
            reply.append(strings: invalidated)
        }
    }

    struct Pair: Sendable {
        var name: String
        var value: BusVariant
    }

    /// An activated session with the lamp (present, -52 dBm) and the sensor (presence not said).
    func activated() async throws -> (FakeAgent, AccessorySession) {
        let agent = try await FakeAgent(address: bus.address, accessories: [Self.lamp, Self.sensor])
        let session = AccessorySession(busAddress: bus.address)
        let accessories = try await session.activate()
        #expect(accessories.map(\.isPresent) == [true, nil])
        return (agent, session)
    }

    @Test func presenceChangesKeepAccessoriesCurrentAndComeOnTheirStream() async throws {
        let (agent, session) = try await activated()
        var changes = session.presenceChanges.makeAsyncIterator()

        agent.emit("PropertiesChanged", path: Self.lampPath, interface: Self.properties, Self.changed([("Present", .bool(false))]))

        #expect(await changes.next() == AccessoryPresence(accessory: AccessoryID(0xA1), isPresent: false))
        // Not heard: the strength it was heard with before no longer holds.
        let lamp = try #require(session.accessories.first)
        #expect(lamp.isPresent == false)
        #expect(lamp.rssi == nil)

        agent.emit("PropertiesChanged", path: Self.sensorPath, interface: Self.properties,
                   Self.changed([("Present", .bool(true)), ("RSSI", .int32(-61))]))
        #expect(await changes.next() == AccessoryPresence(accessory: AccessoryID(0xB2), isPresent: true, rssi: -61))
        #expect(session.accessories.map(\.isPresent) == [false, true])
        #expect(session.accessories.map(\.rssi) == [nil, -61])
        session.invalidate()
        #expect(await changes.next() == nil)
    }

    @Test func malformedOrForeignPresenceSignalsAreSkipped() async throws {
        let (agent, session) = try await activated()
        var changes = session.presenceChanges.makeAsyncIterator()
        let properties = Self.properties

        // The wrong type, the wrong interface, no arguments, an accessory this
        // session does not hold, a path that names no accessory, nothing about
        // presence, the same value again.
        agent.emit("PropertiesChanged", path: Self.lampPath, interface: properties, Self.changed([("Present", .string("no"))]))
        agent.emit("PropertiesChanged", path: Self.lampPath, interface: properties,
                   Self.changed([("Present", .bool(false))], interface: "org.accessoryagent.Session1"))
        agent.emit("PropertiesChanged", path: Self.lampPath, interface: properties)
        agent.emit("PropertiesChanged", path: "/org/accessoryagent/accessory/00000000000000c3", interface: properties,
                   Self.changed([("Present", .bool(false))]))
        agent.emit("PropertiesChanged", path: FakeAgent.sessionPath, interface: properties, Self.changed([("Present", .bool(false))]))
        agent.emit("PropertiesChanged", path: Self.lampPath, interface: properties, Self.changed([("DisplayName", .string("Lamp"))]))
        agent.emit("PropertiesChanged", path: Self.lampPath, interface: properties, Self.changed([("Present", .bool(true))]))
        // Then one that counts, sent last: it must be the first change.
        agent.emit("PropertiesChanged", path: Self.lampPath, interface: properties, Self.changed([("RSSI", .int32(-70))]))

        #expect(await changes.next() == AccessoryPresence(accessory: AccessoryID(0xA1), isPresent: true, rssi: -70))
        #expect(session.accessories.map(\.displayName) == ["Porch Lamp", "Lab Sensor"])
        #expect(session.accessories.map(\.isPresent) == [true, nil])
        session.invalidate()
    }

    @Test func aPropertyTheAgentInvalidatesIsNoLongerKnown() async throws {
        let (agent, session) = try await activated()
        var changes = session.presenceChanges.makeAsyncIterator()

        agent.emit("PropertiesChanged", path: Self.lampPath, interface: Self.properties, Self.changed([], invalidated: ["RSSI"]))

        #expect(await changes.next() == AccessoryPresence(accessory: AccessoryID(0xA1), isPresent: true, rssi: nil))
        #expect(session.accessories.first?.rssi == nil)
        session.invalidate()
    }

    @Test func anRSSIOf127MeansNotKnown() async throws {
        let (agent, session) = try await activated()
        var changes = session.presenceChanges.makeAsyncIterator()
        var advertisements = session.advertisements.makeAsyncIterator()

        agent.emit("PropertiesChanged", path: Self.lampPath, interface: Self.properties, Self.changed([("RSSI", .int32(-70))]))
        #expect(await changes.next() == AccessoryPresence(accessory: AccessoryID(0xA1), isPresent: true, rssi: -70))
        agent.emit("PropertiesChanged", path: Self.lampPath, interface: Self.properties, Self.changed([("RSSI", .int32(127))]))
        #expect(await changes.next() == AccessoryPresence(accessory: AccessoryID(0xA1), isPresent: true, rssi: nil))
        #expect(session.accessories.first?.rssi == nil)

        agent.emit("Advertisement", path: Self.lampPath, interface: Self.accessory) { $0.append(Int32(127)).append(bytes: [0x01]) }
        #expect(await advertisements.next() == AccessoryAdvertisement(accessory: AccessoryID(0xA1), rssi: nil, data: [0x01]))
        #expect(session.accessories.first?.rssi == nil)
        session.invalidate()
    }

    @Test func advertisementsComeOnTheirStreamAndUpdateTheRSSI() async throws {
        let (agent, session) = try await activated()
        var advertisements = session.advertisements.makeAsyncIterator()
        let accessory = Self.accessory

        // The wrong signature, an accessory this session does not hold, the wrong interface.
        agent.emit("Advertisement", path: Self.lampPath, interface: accessory) { $0.append("-40").append(bytes: [1]) }
        agent.emit("Advertisement", path: "/org/accessoryagent/accessory/00000000000000c3", interface: accessory) {
            $0.append(Int32(-40)).append(bytes: [1])
        }
        agent.emit("Advertisement", path: Self.lampPath, interface: "org.accessoryagent.Session1") {
            $0.append(Int32(-40)).append(bytes: [1])
        }
        agent.emit("Advertisement", path: Self.lampPath, interface: accessory) {
            $0.append(Int32(-47)).append(bytes: [0x02, 0x01, 0x06, 0x04, 0x16, 0x0F, 0x18, 0x64])
        }

        #expect(await advertisements.next() == AccessoryAdvertisement(
            accessory: AccessoryID(0xA1), rssi: -47, data: [0x02, 0x01, 0x06, 0x04, 0x16, 0x0F, 0x18, 0x64]))
        #expect(session.accessories.first?.rssi == -47)
        session.invalidate()
        #expect(await advertisements.next() == nil)
    }

    @Test func anAccessoryPickedInTheSessionIsFollowedToo() async throws {
        let agent = try await FakeAgent(address: bus.address, picker: [.pick(Self.sensor)])
        let session = AccessorySession(busAddress: bus.address)
        var changes = session.presenceChanges.makeAsyncIterator()
        try await session.activate()
        try await session.showPicker(for: [PickerDisplayItem(name: "Sensor", descriptor: AccessorySessionTests.lampDescriptor)])

        agent.emit("PropertiesChanged", path: Self.sensorPath, interface: Self.properties, Self.changed([("Present", .bool(true))]))

        #expect(await changes.next() == AccessoryPresence(accessory: AccessoryID(0xB2), isPresent: true))
        #expect(session.accessories.map(\.isPresent) == [true])
        session.invalidate()
    }

    @Test func accessorySignalsFromAnyoneButTheAgentAreIgnored() async throws {
        let (agent, session) = try await activated()
        var advertisements = session.advertisements.makeAsyncIterator()
        var changes = session.presenceChanges.makeAsyncIterator()
        let client = try #require(agent.clientName)
        let lampPath = Self.lampPath
        let forgedPresence = Self.changed([("Present", .bool(false))])
        try await Impostor.send(on: bus.address) { connection in
            try connection.emitSignal(
                path: lampPath, interface: "org.accessoryagent.Accessory1", member: "Advertisement",
                destination: client) { $0.append(Int32(-1)).append(bytes: [0xFF]) }
            try connection.emitSignal(
                path: lampPath, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                destination: client, forgedPresence)
        }

        agent.emit("Advertisement", path: Self.lampPath, interface: Self.accessory) { $0.append(Int32(-50)).append(bytes: [0x01]) }
        agent.emit("PropertiesChanged", path: Self.lampPath, interface: Self.properties, Self.changed([("RSSI", .int32(-55))]))

        #expect(await advertisements.next() == AccessoryAdvertisement(accessory: AccessoryID(0xA1), rssi: -50, data: [0x01]))
        #expect(await changes.next() == AccessoryPresence(accessory: AccessoryID(0xA1), isPresent: true, rssi: -55))
        session.invalidate()
    }
}
