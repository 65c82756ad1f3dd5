import AccessoryCore
import Testing
import TestSupport

@Suite("NetworkManager join state machine")
struct NetworkManagerJoinStateMachineTests {
    @Test("activated, then the address read: joined with it")
    func joined() {
        let clock = ManualClock()
        var machine = NetworkManagerJoinStateMachine(interface: "wlan0", timeout: .seconds(30), clock: clock)
        #expect(machine.activeStateChanged(1, reason: 0) == .none)
        #expect(machine.activeStateChanged(2, reason: 0) == .readAddress)
        #expect(machine.activeStateChanged(2, reason: 0) == .none, "a repeated activated asks once")
        #expect(machine.addressRead(IPv4Address(192, 168, 4, 2)) == .finish(.joined(interface: "wlan0", address: IPv4Address(192, 168, 4, 2))))
        #expect(machine.activeStateChanged(4, reason: 3) == .none, "nothing after the end")
    }

    @Test("the device's failure reason decides when the activation is deactivated",
          arguments: [
              (UInt32(7), HotspotJoinResult.wrongKey), (8, .wrongKey), (53, .networkNotFound),
              (17, .failed(reason: "no IPv4 address from DHCP")), (5, .failed(reason: "no IPv4 address from DHCP")),
          ])
    func deviceReason(reason: UInt32, expected: HotspotJoinResult) {
        var machine = NetworkManagerJoinStateMachine(interface: "wlan0", timeout: .seconds(30), clock: ManualClock())
        _ = machine.activeStateChanged(1, reason: 0)
        #expect(machine.deviceStateChanged(new: 120, reason: reason) == .none)
        #expect(machine.activeStateChanged(4, reason: 3) == .finish(expected))
    }

    @Test("without a device reason, the active connection's own reason")
    func activeReason() {
        var machine = NetworkManagerJoinStateMachine(interface: "wlan0", timeout: .seconds(30), clock: ManualClock())
        #expect(machine.activeStateChanged(4, reason: 9) == .finish(.wrongKey))
        #expect(NetworkManagerJoinStateMachine.failure(activeReason: 6) == .timedOut)
        #expect(NetworkManagerJoinStateMachine.failure(activeReason: 11) == .failed(reason: "the hotspot profile was removed"))
    }

    @Test("a device reason that is no failure (a new activation taking the device from the uplink) changes nothing")
    func harmlessReason() {
        var machine = NetworkManagerJoinStateMachine(interface: "wlan0", timeout: .seconds(30), clock: ManualClock())
        #expect(machine.deviceStateChanged(new: 30, reason: 60) == .none)
        #expect(machine.activeStateChanged(4, reason: 3) == .finish(.failed(reason: "NetworkManager ended the activation (reason 3)")))
    }

    @Test("the deadline: timed out, or the failure the device last gave")
    func deadline() {
        let clock = ManualClock()
        var machine = NetworkManagerJoinStateMachine(interface: "wlan0", timeout: .seconds(30), clock: clock)
        clock.advance(by: .seconds(29))
        #expect(machine.checkDeadline() == nil)
        clock.advance(by: .seconds(1))
        #expect(machine.checkDeadline() == .timedOut)

        var failing = NetworkManagerJoinStateMachine(interface: "wlan0", timeout: .seconds(30), clock: clock)
        _ = failing.deviceStateChanged(new: 50, reason: 53)
        clock.advance(by: .seconds(30))
        #expect(failing.activeStateChanged(1, reason: 0) == .finish(.networkNotFound))
    }

    @Test("activated without an address is a failure, not a join")
    func noAddress() {
        var machine = NetworkManagerJoinStateMachine(interface: "wlan0", timeout: .seconds(30), clock: ManualClock())
        _ = machine.activeStateChanged(2, reason: 0)
        #expect(machine.addressRead(nil) == .finish(.failed(reason: "NetworkManager activated the hotspot without an IPv4 address")))
    }

    @Test("the route: NetworkManager when it manages the interface, wpa_supplicant otherwise")
    func route() {
        #expect(HotspotJoinRoute.choose(networkManagerManages: true) == .networkManager)
        #expect(HotspotJoinRoute.choose(networkManagerManages: false) == .wpaSupplicant)
        #expect("\(HotspotJoinRoute.networkManager)" == "networkmanager")
    }
}
