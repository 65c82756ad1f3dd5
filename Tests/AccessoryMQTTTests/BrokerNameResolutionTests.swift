import Foundation
import Glibc
import Testing
import TestSupport

/// Item 8 of issue 24 for accessory-mqtt: the broker's `Host=` name is
/// resolved (libmosquitto's getaddrinfo) off the loop. The bridge runs in a
/// mount namespace of its own whose /etc/resolv.conf names a DNS server
/// that keeps the queries and does not answer: while it hangs, the loop
/// goes on (it logs what the session with accessoryd says, which comes
/// through the loop's inbox); once the server answers, the bridge connects
/// to the real broker by that name.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct BrokerNameResolutionTests {
    @Test func aBrokerNameDNSDoesNotAnswerHoldsUpNothingElse() throws {
        let broker = try MosquittoBroker()
        let dns = try SilentNameServer()
        let scratch = try ScratchDirectory("mqtt-dns")
        // glibc's longest wait: 30 s per try, 5 tries; a loop blocked in getaddrinfo stays so past the test's bounds.
        try "nameserver \(dns.address)\noptions timeout:30 attempts:5\n"
            .write(toFile: scratch.path("resolv.conf"), atomically: true, encoding: .utf8)
        let name = "broker.accessory-test"
        let bridge = try BridgeProcess(
            configuration: BrokerTests.configuration(port: broker.port).replacingOccurrences(of: "Host=127.0.0.1", with: "Host=\(name)"),
            busAddress: nil,
            wrapper: ["/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c",
                      "mount --bind \"$0\" /etc/resolv.conf && exec \"$@\"", scratch.path("resolv.conf")])
        // The name is being resolved: the server has the query, and answers nothing.
        var asked = 0
        for _ in 0..<600 where asked == 0 {
            asked = dns.received
            usleep(100_000)
        }
        #expect(asked > 0, "no DNS query for \(name): \(bridge.log)")
        // Meanwhile the loop serves the rest: the session's news (accessoryd is out of reach) reach the log.
        #expect(bridge.waitForLog("cannot activate a session with accessoryd"), "\(bridge.log)")
        #expect(!bridge.log.contains("connected to the broker"))
        // The server answers: the bridge connects, by that name.
        dns.answer(address: "127.0.0.1")
        #expect(bridge.waitForLog("connected to the broker at \(name):\(broker.port)"), "\(bridge.log)")
        #expect(try broker.retained { $0["accessory-mqtt/hall/status"] == "online" }["accessory-mqtt/hall/status"] == "online")
    }
}
