import Foundation
import Glibc
import Testing
import TestSupport

/// accessory-mqtt between the real accessoryd (replaying the lab's capture on
/// a private bus) and a real mosquitto: what it publishes is what was approved
/// for it, Home Assistant finds it, and two gateways share one broker.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct GatewayTests {
    static func presence(_ gateway: String, _ id: String) -> String { "accessory-mqtt/\(gateway)/accessory/\(id)/presence" }
    static func tracker(_ gateway: String, _ id: String) -> String {
        "homeassistant/device_tracker/accessory-mqtt_\(gateway)/\(id)_presence/config"
    }
    static func rssiSensor(_ gateway: String, _ id: String) -> String { "homeassistant/sensor/accessory-mqtt_\(gateway)/\(id)_rssi/config" }

    @Test func anApprovedAccessoryIsDiscoveredWithPresenceAndRSSIThenRemovedWithItsGrant() throws {
        let gateway = try ReplayedGateway()
        let id = try gateway.approveTheSensor()
        let broker = try MosquittoBroker()
        let bridge = try BridgeProcess(configuration: BrokerTests.configuration(port: broker.port), busAddress: gateway.bus.address)

        let retained = try broker.retained {
            $0[Self.tracker("hall", id)] != nil && $0[Self.presence("hall", id)]?.contains(#""rssi":"#) == true
        }
        let tracker = try #require(retained[Self.tracker("hall", id)], "\(bridge.log)")
        #expect(tracker.contains(#""source_type":"bluetooth_le""#))
        #expect(tracker.contains(#""via_device":"accessory-mqtt_hall""#))
        #expect(tracker.contains(#""name":"Lab Sensor""#))
        #expect(tracker.contains(#""availability_topic":"accessory-mqtt/hall/status""#))
        let rssi = try #require(retained[Self.rssiSensor("hall", id)])
        #expect(rssi.contains(#""device_class":"signal_strength","unit_of_measurement":"dBm""#))
        let presence = try #require(retained[Self.presence("hall", id)])
        #expect(presence == #"{"state":"home","gateway":"hall","rssi":-60}"#)
        #expect(retained["accessory-mqtt/hall/accessory/\(id)/state"]?.contains(#""state":"authorized""#) == true)
        // The capture's advertisements, decoded; the sensor sends two kinds in
        // turn (with its name, and with its 128-bit service), so the one with its name is awaited.
        let topic = "accessory-mqtt/hall/accessory/\(id)/advertisement"
        let advertised = try broker.retained { $0[topic]?.contains("Lab Sensor") == true }[topic]
        #expect(advertised == #"{"gateway":"hall","rssi":-60,"local_name":"Lab Sensor","tx_power":-8,"service_data":{},"manufacturer_data":{"ffff":"2b"}}"#,
                "\(bridge.log)")

        // ACCESSORY_PUBLISHED's line: once, however many publications followed.
        #expect(bridge.log.components(separatedBy: "published accessory \(id) (Lab Sensor)").count == 2, "\(bridge.log)")

        // The grant removed: Home Assistant's configs are emptied (retained deleted).
        try gateway.removeAccessory(id)
        let after = try broker.retained { $0[Self.tracker("hall", id)] == nil && $0[Self.rssiSensor("hall", id)] == nil }
        #expect(after[Self.tracker("hall", id)] == nil, "\(bridge.log)")
        #expect(after[Self.rssiSensor("hall", id)] == nil)
        #expect(after[Self.presence("hall", id)] == nil)
        #expect(after["accessory-mqtt/hall/status"] == "online")
    }

    /// accessoryd restarting: the client library activates the bridge's
    /// session again (serviceRestarted), the bridge re-reads its accessories
    /// and keeps publishing them; the broker never sees it go offline.
    @Test func accessorydRestartingIsFollowedByANewSession() throws {
        let gateway = try ReplayedGateway()
        let id = try gateway.approveTheSensor()
        let broker = try MosquittoBroker()
        let bridge = try BridgeProcess(configuration: BrokerTests.configuration(port: broker.port), busAddress: gateway.bus.address)
        #expect(bridge.waitForLog("accessoryd: 1 accessory approved for this bridge"), "\(bridge.log)")

        try gateway.restartAccessoryd()
        #expect(bridge.waitForLog("accessoryd restarted; the session is active again"), "\(bridge.log)")
        #expect(bridge.waitForLog("accessoryd: 1 accessory approved for this bridge", times: 2), "\(bridge.log)")
        let retained = try broker.retained { $0[Self.presence("hall", id)] != nil && $0[Self.tracker("hall", id)] != nil }
        #expect(retained[Self.tracker("hall", id)] != nil)
        #expect(retained["accessory-mqtt/hall/status"] == "online")
        #expect(bridge.isRunning)
    }

    /// The sensor is heard (accessoryd offers it to the bridge's own picker)
    /// but nobody approved it: no topic and no payload names it. A bridge
    /// that published what the gateway hears would fail here.
    @Test func aDeviceHeardButNotApprovedAppearsInNoTopic() throws {
        let gateway = try ReplayedGateway()
        _ = try gateway.pickerWithTheSensorAsCandidate()
        let broker = try MosquittoBroker()
        let bridge = try BridgeProcess(configuration: BrokerTests.configuration(port: broker.port), busAddress: gateway.bus.address)
        #expect(bridge.waitForLog("accessoryd: 0 accessories approved for this bridge"), "\(bridge.log)")
        // Heard all along: the candidate is still offered.
        #expect(try gateway.run("\"$ACCESSORYCTL\" requests").output.contains("Lab Sensor"))

        let retained = try broker.retained {
            $0["accessory-mqtt/hall/status"] == "online" && $0["homeassistant/binary_sensor/accessory-mqtt_hall/gateway/config"] != nil
        }
        #expect(Set(retained.keys) == ["accessory-mqtt/hall/status", "homeassistant/binary_sensor/accessory-mqtt_hall/gateway/config"],
                "\(retained)")
        for (topic, payload) in retained {
            #expect(!topic.contains("/accessory/") && !payload.contains("Lab Sensor") && !payload.contains("00:AA:01:01:00:01"))
        }
    }

    /// Two gateways (two accessoryd and bridge pairs on two private buses),
    /// each with the same sensor approved, publish to one broker: both are
    /// there with their RSSI, no topic written by both; one killed, its
    /// last will says offline while the other stays online.
    @Test func twoGatewaysShareOneBrokerWithoutCollisions() throws {
        let broker = try MosquittoBroker()
        let hall = try ReplayedGateway(rssi: -58)
        let kitchen = try ReplayedGateway(rssi: -77)
        let hallID = try hall.approveTheSensor()
        let kitchenID = try kitchen.approveTheSensor()
        let hallBridge = try BridgeProcess(
            configuration: BrokerTests.configuration(port: broker.port, gateway: "hall"), busAddress: hall.bus.address)
        let kitchenBridge = try BridgeProcess(
            configuration: BrokerTests.configuration(port: broker.port, gateway: "kitchen"), busAddress: kitchen.bus.address)

        let retained = try broker.retained {
            $0[Self.presence("hall", hallID)]?.contains("rssi") == true && $0[Self.presence("kitchen", kitchenID)]?.contains("rssi") == true
        }
        #expect(retained[Self.presence("hall", hallID)] == #"{"state":"home","gateway":"hall","rssi":-58}"#, "\(hallBridge.log)")
        #expect(retained[Self.presence("kitchen", kitchenID)] == #"{"state":"home","gateway":"kitchen","rssi":-77}"#, "\(kitchenBridge.log)")
        // Each gateway's topics under its own name, and two devices in Home Assistant.
        let hallTopics = retained.keys.filter { $0.contains("/hall/") || $0.contains("accessory-mqtt_hall") }
        let kitchenTopics = retained.keys.filter { $0.contains("/kitchen/") || $0.contains("accessory-mqtt_kitchen") }
        #expect(Set(hallTopics).isDisjoint(with: kitchenTopics))
        #expect(hallTopics.count + kitchenTopics.count == retained.count)
        #expect(retained[Self.tracker("hall", hallID)] != nil && retained[Self.tracker("kitchen", kitchenID)] != nil)

        kitchenBridge.kill(SIGKILL)
        let after = try broker.retained { $0["accessory-mqtt/kitchen/status"] == "offline" }
        #expect(after["accessory-mqtt/kitchen/status"] == "offline")
        #expect(after["accessory-mqtt/hall/status"] == "online")
    }
}
