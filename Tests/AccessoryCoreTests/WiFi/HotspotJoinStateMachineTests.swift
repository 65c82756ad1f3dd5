import AccessoryCore
import Testing

@Suite("Hotspot join state machine")
struct HotspotJoinStateMachineTests {
    let address = IPv4Address(192, 168, 77, 10)

    private func machine(_ clock: ManualClock, policy: HotspotJoinPolicy = HotspotJoinPolicy(timeout: .seconds(30))) -> HotspotJoinStateMachine {
        HotspotJoinStateMachine(interface: "wlan0", policy: policy, clock: clock)
    }

    @Test("connected, then an address: joined with interface and address")
    func joined() {
        let clock = ManualClock()
        var join = machine(clock)
        #expect(join.handle(.connected) == nil)
        #expect(join.phase == .obtainingAddress)
        clock.advance(by: .seconds(3))
        #expect(join.handle(.addressObtained(address)) == .joined(interface: "wlan0", address: address))
        #expect(join.result == .joined(interface: "wlan0", address: address))
    }

    @Test("an address before the link counts for nothing")
    func addressBeforeLink() {
        var join = machine(ManualClock())
        #expect(join.handle(.addressObtained(address)) == nil)
        #expect(join.phase == .associating)
    }

    @Test("TEMP-DISABLED with WRONG_KEY ends at once with wrongKey")
    func wrongKey() {
        var join = machine(ManualClock())
        #expect(join.handle(.handshakeFailed) == nil)
        #expect(join.handle(.temporarilyDisabled(reason: "WRONG_KEY")) == .wrongKey)
    }

    @Test("after the hotspot took the key once, a failed handshake is not a wrong key")
    func handshakeFailureAfterConnecting() {
        let clock = ManualClock()
        var join = machine(clock)
        join.handle(.connected)
        join.handle(.disconnected(reason: 15))
        #expect(join.handle(.handshakeFailed) == nil)
        #expect(join.handle(.temporarilyDisabled(reason: "WRONG_KEY")) == nil)
        join.handle(.connected)
        #expect(join.handle(.addressObtained(address)) == .joined(interface: "wlan0", address: address))
    }

    @Test("another TEMP-DISABLED reason waits for wpa_supplicant to retry")
    func otherTemporaryDisable() {
        var join = machine(ManualClock())
        #expect(join.handle(.temporarilyDisabled(reason: "CONN_FAILED")) == nil)
        #expect(join.result == nil)
    }

    @Test("not found after the policy's number of scans, not before")
    func notFound() {
        var join = machine(ManualClock(), policy: HotspotJoinPolicy(timeout: .seconds(30), notFoundScans: 2))
        #expect(join.handle(.networkNotFound) == nil)
        #expect(join.handle(.networkNotFound) == .networkNotFound)
    }

    @Test("association rejected after the policy's number of rejections, with the last status")
    func rejected() {
        var join = machine(ManualClock(), policy: HotspotJoinPolicy(timeout: .seconds(30), rejections: 2))
        #expect(join.handle(.associationRejected(status: 17)) == nil)
        #expect(join.handle(.associationRejected(status: 1)) == .associationRejected(status: 1))
    }

    @Test("nothing decisive by the deadline: timedOut exactly at the deadline, not a moment before")
    func timedOut() {
        let clock = ManualClock()
        var join = machine(clock)
        clock.advance(by: .seconds(30) - .nanoseconds(1))
        #expect(join.checkDeadline() == nil)
        clock.advance(by: .nanoseconds(1))
        #expect(join.checkDeadline() == .timedOut)
        #expect(join.deadline == MonotonicInstant.zero.advanced(by: .seconds(30)))
    }

    @Test("at the deadline the most telling evidence wins", arguments: [
        ([HotspotJoinSignal.handshakeFailed], HotspotJoinResult.wrongKey),
        ([.associationRejected(status: 30)], .associationRejected(status: 30)),
        ([.networkNotFound], .networkNotFound),
        ([.connected], .failed(reason: "no IPv4 address from DHCP")),
        ([.connected, .disconnected(reason: 3)], .timedOut),
    ])
    func deadlineWithEvidence(signals: [HotspotJoinSignal], expected: HotspotJoinResult) {
        let clock = ManualClock()
        var join = machine(clock, policy: HotspotJoinPolicy(timeout: .seconds(30), notFoundScans: 5, rejections: 5))
        for signal in signals { #expect(join.handle(signal) == nil) }
        clock.advance(by: .seconds(31))
        #expect(join.checkDeadline() == expected)
    }

    @Test("a signal arriving after the deadline ends the join as timed out, not as that signal")
    func lateSignal() {
        let clock = ManualClock()
        var join = machine(clock)
        #expect(join.handle(.connected) == nil)
        clock.advance(by: .seconds(45))
        #expect(join.handle(.addressObtained(address)) == .failed(reason: "no IPv4 address from DHCP"))
    }

    @Test("a disconnection while waiting for the address goes back to associating")
    func reconnect() {
        var join = machine(ManualClock())
        join.handle(.connected)
        join.handle(.disconnected(reason: 4))
        #expect(join.phase == .associating)
        #expect(join.handle(.addressObtained(address)) == nil)
        join.handle(.connected)
        #expect(join.handle(.addressObtained(address)) == .joined(interface: "wlan0", address: address))
    }

    @Test("the result is reported once; later signals change nothing")
    func finishedOnce() {
        var join = machine(ManualClock())
        #expect(join.handle(.failed(reason: "wpa_supplicant went away")) == .failed(reason: "wpa_supplicant went away"))
        #expect(join.handle(.connected) == nil)
        #expect(join.checkDeadline() == nil)
        #expect(join.result == .failed(reason: "wpa_supplicant went away"))
    }

    @Test("every sequence of signals ends by the deadline")
    func alwaysBounded() {
        var generator = SystemRandomNumberGenerator()
        let signals: [HotspotJoinSignal] = [
            .connected, .disconnected(reason: nil), .handshakeFailed, .temporarilyDisabled(reason: "CONN_FAILED"),
            .addressObtained(address), .networkNotFound, .associationRejected(status: 1),
        ]
        for _ in 0..<200 {
            let clock = ManualClock()
            var join = machine(clock, policy: HotspotJoinPolicy(timeout: .seconds(20), notFoundScans: 50, rejections: 50))
            for _ in 0..<Int.random(in: 0..<20, using: &generator) {
                clock.advance(by: .milliseconds(Int64.random(in: 0..<900, using: &generator)))
                join.handle(signals.randomElement(using: &generator)!)
            }
            clock.advance(to: join.deadline)
            join.checkDeadline()
            #expect(join.result != nil)
        }
    }

    @Test("IPv4 addresses parse strictly")
    func ipv4() {
        #expect(IPv4Address("10.0.0.255")?.description == "10.0.0.255")
        for bad in ["", "1.2.3", "1.2.3.4.5", "256.1.1.1", "01.2.3.4", "1.2.3.a", "1..2.3", " 1.2.3.4"] {
            #expect(IPv4Address(bad) == nil, "\(bad)")
        }
    }
}
