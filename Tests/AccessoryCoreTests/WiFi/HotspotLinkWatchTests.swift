import AccessoryCore
import Testing

@Suite("Hotspot link watch")
struct HotspotLinkWatchTests {
    @Test("a drop arms the grace timer once; the link back disarms it")
    func dropAndBack() {
        var watch = HotspotLinkWatch(grace: .seconds(15))
        #expect(watch.handle(.disconnected(reason: 3)) == .armGrace)
        #expect(watch.handle(.disconnected(reason: 3)) == HotspotLinkWatch.Action.none)
        #expect(watch.handle(.associationRejected(status: 17)) == HotspotLinkWatch.Action.none)
        #expect(watch.link == .down(reason: 3))
        #expect(watch.handle(.connected) == .disarmGrace)
        #expect(watch.link == .up)
        #expect(watch.graceExpired() == HotspotLinkWatch.Action.none, "a timer that fires late after the link came back")
    }

    @Test("not back within the grace period: lost, with the reason code, once")
    func notBack() {
        var watch = HotspotLinkWatch(grace: .seconds(15))
        _ = watch.handle(.disconnected(reason: 4))
        #expect(watch.graceExpired() == .lost(reason: "the link dropped (reason 4) and was not back within 15 s"))
        #expect(watch.link == .lost)
        #expect(watch.graceExpired() == HotspotLinkWatch.Action.none)
        #expect(watch.handle(.connected) == HotspotLinkWatch.Action.none)
        #expect(watch.handle(.disconnected(reason: nil)) == HotspotLinkWatch.Action.none)
    }

    @Test("a drop without a reason code says so plainly")
    func noReasonCode() {
        var watch = HotspotLinkWatch(grace: .seconds(5))
        _ = watch.handle(.disconnected(reason: nil))
        #expect(watch.graceExpired() == .lost(reason: "the link dropped and was not back within 5 s"))
    }

    @Test("wpa_supplicant going away loses the link at once, up or down")
    func supplicantGone() {
        var up = HotspotLinkWatch()
        #expect(up.handle(.failed(reason: "wpa_supplicant stopped")) == .lost(reason: "wpa_supplicant stopped"))
        var down = HotspotLinkWatch()
        _ = down.handle(.disconnected(reason: 1))
        #expect(down.handle(.failed(reason: "wpa_supplicant stopped")) == .lost(reason: "wpa_supplicant stopped"))
    }

    @Test("with the link up, nothing but a drop or a failure matters")
    func quietWhileUp() {
        var watch = HotspotLinkWatch()
        for signal: HotspotJoinSignal in [.connected, .networkNotFound, .handshakeFailed,
                                          .temporarilyDisabled(reason: "CONN_FAILED"), .addressObtained(IPv4Address(10, 0, 0, 2))] {
            #expect(watch.handle(signal) == HotspotLinkWatch.Action.none)
        }
        #expect(watch.graceExpired() == HotspotLinkWatch.Action.none)
        #expect(watch.link == .up)
    }
}
