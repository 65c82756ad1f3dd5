import Testing
@testable import AccessoryDecisions

/// Who powers the controllers, driven by hand: the management interface's
/// events and bluetoothd's presence in, power commands out.
@Suite struct ControllerPowerPolicyTests {
    typealias Action = ControllerPowerPolicy.Action

    /// Controllers=hci0 (hci1 is not accessoryd's).
    func policy(_ setting: ControllerPowerPolicy.Setting = .auto) -> ControllerPowerPolicy {
        ControllerPowerPolicy(setting: setting, uses: { $0 == 0 })
    }

    @Test func withoutBluetoothdTheControllersUsedArePoweredAndThatIsSaidOnce() {
        var policy = policy()
        #expect(policy.controllerAppeared(0) == [])  // bluetoothd's presence not known yet
        #expect(policy.controllerAppeared(1) == [])
        #expect(policy.managerChanged(.nobody) == [.powerOn(0)])
        #expect(policy.powerAnswered(0, status: 0, powered: true) == [.announcePowering(0)])
        // Someone powers it down: up again, not announced again.
        #expect(policy.settings(0, powered: false) == [.powerOn(0)])
        #expect(policy.powerAnswered(0, status: 0, powered: true) == [])
        // The kernel's auto-off, seen as a down device event.
        #expect(policy.controllerWent(up: false, 0) == [.powerOn(0)])
    }

    @Test func aNewControllerIsPoweredWhenTheKernelHasSetItUp() {
        var policy = policy()
        _ = policy.managerChanged(.nobody)
        // The up event at registration comes while the kernel still sets it up: Invalid Index.
        #expect(policy.controllerWent(up: true, 0) == [.powerOn(0)])
        #expect(policy.powerAnswered(0, status: ControllerPowerPolicy.notReady, powered: nil) == [])
        // Index Added, inside the kernel's two seconds before auto-off.
        #expect(policy.controllerAppeared(0) == [.powerOn(0)])
        #expect(policy.powerAnswered(0, status: 0, powered: true) == [.announcePowering(0)])
    }

    @Test func whileBluetoothdRunsNothingIsPoweredEvenWhenItPowersOff() {
        var policy = policy()
        _ = policy.controllerAppeared(0)
        #expect(policy.managerChanged(.bluetoothd) == [])
        #expect(policy.settings(0, powered: false) == [])
        #expect(policy.controllerWent(up: false, 0) == [])
        #expect(policy.controllerAppeared(0) == [])
    }

    @Test func bluetoothdStartingLaterTakesOverAndNothingIsPoweredOff() {
        var policy = policy()
        _ = policy.controllerAppeared(0)
        _ = policy.managerChanged(.nobody)
        _ = policy.powerAnswered(0, status: 0, powered: true)
        #expect(policy.managerChanged(.bluetoothd) == [.leaveToBluetoothd([0])])
        // bluetoothd powers it off (bluetoothctl power off, or its own setup): left alone.
        #expect(policy.settings(0, powered: false) == [])
        #expect(policy.controllerWent(up: false, 0) == [])
    }

    @Test func bluetoothdStoppingPowersItOffThenLeavesAndAccessorydPowersItAgain() {
        var policy = policy()
        _ = policy.controllerAppeared(0)
        _ = policy.managerChanged(.bluetoothd)
        // bluetoothd powers its controllers off on exit, before it releases its bus name.
        #expect(policy.settings(0, powered: false) == [])
        #expect(policy.managerChanged(.nobody) == [.powerOn(0)])
        #expect(policy.powerAnswered(0, status: 0, powered: true) == [.announcePowering(0)])
    }

    @Test func neverMeansNeverAndOtherControllersAreLeftAlone() {
        var never = policy(.never)
        _ = never.controllerAppeared(0)
        #expect(never.managerChanged(.nobody) == [])
        #expect(never.controllerWent(up: false, 0) == [])

        var auto = policy()
        _ = auto.controllerAppeared(1)
        #expect(auto.managerChanged(.nobody) == [])
        #expect(auto.controllerWent(up: false, 1) == [])
    }

    @Test func aFailureIsSaidOnceAndNotRetriedUntilSomethingNewIsHeard() {
        var policy = policy()
        _ = policy.controllerAppeared(0)
        #expect(policy.managerChanged(.nobody) == [.powerOn(0)])
        #expect(policy.powerAnswered(0, status: 0x12, powered: nil) == [.powerFailed(0, status: 0x12, firstTime: true)])
        #expect(policy.settings(0, powered: false) == [])
        // rfkill lifted, the controller comes back: tried again, the failure not said again.
        #expect(policy.controllerWent(up: false, 0) == [.powerOn(0)])
        #expect(policy.powerAnswered(0, status: 0x12, powered: nil) == [.powerFailed(0, status: 0x12, firstTime: false)])
    }

    @Test func oneCommandAtATimePerController() {
        var policy = policy()
        _ = policy.controllerAppeared(0)
        #expect(policy.managerChanged(.nobody) == [.powerOn(0)])
        #expect(policy.controllerWent(up: false, 0) == [])
        #expect(policy.controllerRemoved(0) == [])
        #expect(policy.controllerAppeared(0) == [.powerOn(0)])
    }
}
