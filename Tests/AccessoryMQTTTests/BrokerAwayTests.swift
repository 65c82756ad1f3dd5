import Foundation
import Glibc
import Testing
import TestSupport

/// The broker away while grants change (issue 29, point 5): a real mosquitto
/// that keeps its retained messages on disk is stopped, the grant is removed
/// meanwhile, and the broker started again. The withdrawal waited for it:
/// Home Assistant's configs are emptied; what is current is published again.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct BrokerAwayTests {
    @Test func aGrantRemovedWhileTheBrokerIsAwayIsWithdrawnWhenItComesBack() throws {
        let broker = try MosquittoBroker(persistent: true)
        let gateway = try ReplayedGateway()
        let id = try gateway.approveTheSensor()
        let bridge = try BridgeProcess(configuration: BrokerTests.configuration(port: broker.port), busAddress: gateway.bus.address)
        let tracker = GatewayTests.tracker("hall", id)
        let before = try broker.retained { $0[tracker] != nil && $0[GatewayTests.presence("hall", id)] != nil }
        #expect(before[tracker] != nil, "\(bridge.log)")

        // Stopped cleanly: it saves the retained messages and restores them at its next start.
        broker.stop()
        #expect(bridge.waitForLog("lost the broker at 127.0.0.1:\(broker.port)"), "\(bridge.log)")
        try gateway.removeAccessory(id)
        #expect(bridge.waitForLog("the grant of accessory \(id) was removed while the broker is away"), "\(bridge.log)")

        try broker.start()
        #expect(bridge.waitForLog("withdrew 1 grant removed while the broker was away: \(id)"), "\(bridge.log)")
        let after = try broker.retained {
            $0[tracker] == nil && $0["accessory-mqtt/hall/status"] == "online" && $0["homeassistant/binary_sensor/accessory-mqtt_hall/gateway/config"] != nil
        }
        #expect(after[tracker] == nil, "\(bridge.log)")
        #expect(after[GatewayTests.rssiSensor("hall", id)] == nil)
        #expect(after[GatewayTests.presence("hall", id)] == nil)
        #expect(after["accessory-mqtt/hall/accessory/\(id)/state"] == nil)
        #expect(after["accessory-mqtt/hall/status"] == "online")
        #expect(bridge.isRunning)
    }

    /// The control for the test above: the same broker restored its retained
    /// configs, so without the withdrawal they would still be there.
    @Test func theBrokerKeepsRetainedConfigsAcrossACleanRestart() throws {
        let broker = try MosquittoBroker(persistent: true)
        let gateway = try ReplayedGateway()
        let id = try gateway.approveTheSensor()
        let bridge = try BridgeProcess(configuration: BrokerTests.configuration(port: broker.port), busAddress: gateway.bus.address)
        let tracker = GatewayTests.tracker("hall", id)
        _ = try broker.retained { $0[tracker] != nil }
        bridge.kill(SIGKILL)
        broker.stop()
        try broker.start()
        let restored = try broker.retained { $0[tracker] != nil }
        #expect(restored[tracker] != nil)
        #expect(restored["accessory-mqtt/hall/status"] == "offline")
    }

    /// While away and after: the presence published on reconnection is the
    /// sensor's current one, and the broker is given the state afresh.
    @Test func theCurrentStateIsPublishedAgainAfterTheBrokerLostIt() throws {
        let broker = try MosquittoBroker()
        let gateway = try ReplayedGateway(rssi: -66)
        let id = try gateway.approveTheSensor()
        let bridge = try BridgeProcess(configuration: BrokerTests.configuration(port: broker.port), busAddress: gateway.bus.address)
        let presence = GatewayTests.presence("hall", id)
        _ = try broker.retained { $0[presence] != nil }
        // Killed: no persistence, every retained message is gone with it.
        broker.kill()
        #expect(bridge.waitForLog("lost the broker at 127.0.0.1:\(broker.port)"), "\(bridge.log)")
        try broker.start()
        let again = try broker.retained { $0[presence]?.contains("rssi") == true && $0[GatewayTests.tracker("hall", id)] != nil }
        #expect(again[presence] == #"{"state":"home","gateway":"hall","rssi":-66}"#, "\(bridge.log)")
        #expect(again["accessory-mqtt/hall/accessory/\(id)/state"]?.contains(#""state":"authorized""#) == true)
        #expect(!bridge.log.contains("withdrew"))
    }
}
