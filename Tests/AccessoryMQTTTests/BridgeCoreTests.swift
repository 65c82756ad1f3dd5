import AccessoryCore
import AccessoryMQTT
import Testing

/// The bridge's decisions: what is sent on connect, on news from accessoryd,
/// on removal, while the broker is away, and when Home Assistant restarts.
@Suite struct BridgeCoreTests {
    static let sensor = BridgedAccessory(id: PayloadTests.sensorID, name: "Lab Sensor", isPresent: true, rssi: -52)
    static let pending = BridgedAccessory(id: AccessoryID(0xA1), name: "Porch Lamp", state: .awaitingAuthorization, isPresent: true)
    let clock = ManualClock()

    func connectedCore(with accessories: [BridgedAccessory] = [sensor]) -> BridgeCore {
        var core = BridgeCore(topics: PayloadTests.topics, minimumInterval: .seconds(10))
        _ = core.handle(.activated(accessories), now: clock.now)
        _ = core.handle(.brokerConnected, now: clock.now)
        return core
    }

    @Test func onConnectTheBirthTheConfigsAndTheCurrentStateAreSent() {
        var core = BridgeCore(topics: PayloadTests.topics, minimumInterval: .seconds(10))
        // Before the broker is there, nothing is sent (and nothing queued).
        #expect(core.handle(.activated([Self.sensor, Self.pending]), now: clock.now).isEmpty)
        let sent = core.handle(.brokerConnected, now: clock.now)
        #expect(sent.map(\.topic) == [
            "accessory-mqtt/hall/status",
            "homeassistant/binary_sensor/accessory-mqtt_hall/gateway/config",
            "homeassistant/device_tracker/accessory-mqtt_hall/31a2429721ee04be_presence/config",
            "homeassistant/sensor/accessory-mqtt_hall/31a2429721ee04be_rssi/config",
            "accessory-mqtt/hall/accessory/31a2429721ee04be/state",
            "accessory-mqtt/hall/accessory/31a2429721ee04be/presence",
        ])
        #expect(sent[0].payload == "online")
        #expect(sent.allSatisfy { $0.retain })
        // The lamp waits for its setup to finish: in no topic.
        #expect(!sent.contains { $0.topic.contains("00000000000000a1") || $0.payload.contains("Porch Lamp") })
    }

    @Test func anAccessoryBecomesPublishedOnceAuthorized() {
        var core = connectedCore(with: [Self.pending])
        var lamp = Self.pending
        lamp.state = .authorized
        let sent = core.handle(.accessoryUpdated(lamp), now: clock.now)
        #expect(sent.map(\.topic).contains("homeassistant/device_tracker/accessory-mqtt_hall/00000000000000a1_presence/config"))
    }

    @Test func presenceChangesGoAtOnceAndRSSIWithinTheBound() {
        var core = connectedCore()
        let presence = PayloadTests.topics.presence(Self.sensor.id)
        #expect(core.handle(.presence(Self.sensor.id, isPresent: false, rssi: nil), now: clock.now)
            == [Publication(topic: presence, payload: #"{"state":"not_home","gateway":"hall"}"#)])
        clock.advance(by: .seconds(1))
        #expect(core.handle(.presence(Self.sensor.id, isPresent: true, rssi: -60), now: clock.now)
            == [Publication(topic: presence, payload: #"{"state":"home","gateway":"hall","rssi":-60}"#)])
        clock.advance(by: .seconds(1))
        // The RSSI alone changing: held until 10 s after the last message on the topic.
        #expect(core.handle(.presence(Self.sensor.id, isPresent: true, rssi: -70), now: clock.now).isEmpty)
        #expect(core.nextDeadline == MonotonicInstant.zero.advanced(by: .seconds(11)))
        clock.advance(by: .seconds(9))
        #expect(core.handle(.tick, now: clock.now)
            == [Publication(topic: presence, payload: #"{"state":"home","gateway":"hall","rssi":-70}"#)])
    }

    @Test func aRemovedGrantEmptiesEveryRetainedTopicOfTheAccessory() {
        var core = connectedCore()
        let sent = core.handle(.accessoryRemoved(Self.sensor.id), now: clock.now)
        #expect(sent.count == 5)
        #expect(sent.allSatisfy { $0.payload.isEmpty && $0.retain })
        #expect(Set(sent.map(\.topic)) == [
            "homeassistant/device_tracker/accessory-mqtt_hall/31a2429721ee04be_presence/config",
            "homeassistant/sensor/accessory-mqtt_hall/31a2429721ee04be_rssi/config",
            "accessory-mqtt/hall/accessory/31a2429721ee04be/state",
            "accessory-mqtt/hall/accessory/31a2429721ee04be/presence",
            "accessory-mqtt/hall/accessory/31a2429721ee04be/advertisement",
        ])
        // Later news of it is not published.
        #expect(core.handle(.presence(Self.sensor.id, isPresent: true, rssi: -40), now: clock.now).isEmpty)
    }

    @Test func aGrantGoneWhileAwayIsClearedOnReconnectAndOnlyCurrentStateIsSent() {
        var core = connectedCore()
        _ = core.handle(.brokerDisconnected, now: clock.now)
        #expect(core.handle(.presence(Self.sensor.id, isPresent: false, rssi: nil), now: clock.now).isEmpty)
        #expect(core.handle(.presence(Self.sensor.id, isPresent: true, rssi: -58), now: clock.now).isEmpty)
        // accessoryd restarted meanwhile and the grant is gone: activation lists nothing.
        #expect(core.handle(.activated([]), now: clock.now).isEmpty)
        let sent = core.handle(.brokerConnected, now: clock.now)
        #expect(sent.filter { $0.topic.contains("31a2429721ee04be") }.allSatisfy { $0.payload.isEmpty })
        #expect(sent.filter { $0.topic.contains("31a2429721ee04be") }.count == 5)
    }

    @Test func reconnectSendsTheLatestStateNotTheChangesMissed() {
        var core = connectedCore()
        _ = core.handle(.brokerDisconnected, now: clock.now)
        _ = core.handle(.presence(Self.sensor.id, isPresent: false, rssi: nil), now: clock.now)
        _ = core.handle(.presence(Self.sensor.id, isPresent: true, rssi: -58), now: clock.now)
        let presence = core.handle(.brokerConnected, now: clock.now).filter { $0.topic.hasSuffix("/presence") }
        #expect(presence == [Publication(topic: PayloadTests.topics.presence(Self.sensor.id), payload: #"{"state":"home","gateway":"hall","rssi":-58}"#)])
    }

    @Test func homeAssistantComingOnlineGetsTheConfigsAgain() {
        var core = connectedCore()
        let sent = core.handle(.homeAssistantOnline, now: clock.now)
        #expect(sent.map(\.topic) == [
            "homeassistant/binary_sensor/accessory-mqtt_hall/gateway/config",
            "homeassistant/device_tracker/accessory-mqtt_hall/31a2429721ee04be_presence/config",
            "homeassistant/sensor/accessory-mqtt_hall/31a2429721ee04be_rssi/config",
        ])
    }

    @Test func newsOfAnAccessoryTheBridgeWasNotGivenIsIgnored() {
        var core = connectedCore()
        #expect(core.handle(.presence(AccessoryID(0xC3), isPresent: true, rssi: -40), now: clock.now).isEmpty)
        #expect(core.handle(.advertisement(AccessoryID(0xC3), rssi: -40, data: [0x02, 0x01, 0x06]), now: clock.now).isEmpty)
    }

    @Test func anAdvertisementIsPublishedWithItsFields() {
        var core = connectedCore()
        let sent = core.handle(.advertisement(Self.sensor.id, rssi: -61, data: [0x04, 0x16, 0x0F, 0x18, 0x64]), now: clock.now)
        #expect(sent.first == Publication(
            topic: PayloadTests.topics.advertisement(Self.sensor.id),
            payload: #"{"gateway":"hall","rssi":-61,"service_data":{"180F":"64"},"manufacturer_data":{}}"#))
    }
}
