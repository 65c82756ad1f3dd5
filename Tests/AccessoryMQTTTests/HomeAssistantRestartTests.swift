import Foundation
import Glibc
import Testing
import TestSupport

/// Home Assistant announcing itself (`online` on homeassistant/status, as it
/// does after it starts) gets the discovery configs sent again, live, from a
/// real bridge through a real mosquitto.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct HomeAssistantRestartTests {
    @Test func onlineOnHomeAssistantsStatusTopicGetsTheConfigsAgain() throws {
        let broker = try MosquittoBroker()
        let gateway = try ReplayedGateway()
        let id = try gateway.approveTheSensor()
        let bridge = try BridgeProcess(configuration: BrokerTests.configuration(port: broker.port), busAddress: gateway.bus.address)
        let tracker = GatewayTests.tracker("hall", id)
        _ = try broker.retained { $0[tracker] != nil }
        #expect(bridge.waitForLog("connected to the broker"), "\(bridge.log)")

        // Subscribed after the configs went: only a fresh send reaches it (-R leaves out the retained).
        let live = try LiveSubscriber(broker, filter: "homeassistant/#")
        #expect(!live.lines.contains { $0.hasPrefix(tracker + " ") })
        let (status, output) = try MosquittoBroker.run(
            "/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", String(broker.port), "-t", "homeassistant/status", "-m", "online"])
        #expect(status == 0, "\(output)")
        #expect(live.waitFor { $0.hasPrefix(tracker + " ") }, "\(live.lines)\n\(bridge.log)")
        #expect(live.waitFor { $0.hasPrefix(GatewayTests.rssiSensor("hall", id) + " ") })
        #expect(live.waitFor { $0.hasPrefix("homeassistant/binary_sensor/accessory-mqtt_hall/gateway/config ") })
        let sent = try #require(live.lines.first { $0.hasPrefix(tracker + " ") })
        #expect(sent.contains(#""source_type":"bluetooth_le""#))
    }
}
