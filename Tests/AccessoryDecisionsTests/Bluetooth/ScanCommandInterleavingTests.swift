import AccessoryCodecs
import AccessoryCore
import Testing
@testable import AccessoryDecisions

/// Our scan commands and the kernel's, as a shared controller's raw socket
/// shows them. The kernel sends every command, its own and those written to
/// raw sockets, through one queue and the next only once the last is
/// answered, and copies its own to our socket when it sends them: so an
/// answer to a command of the kernel's seen on the socket comes before the
/// answer to ours still queued, and ours, sent first, is answered before the
/// kernel's is seen at all. Each order the queue allows is played here, for
/// legacy and extended scanning, with success and Command Disallowed (what
/// btvirt's controllers answer to a scan turned on or off twice).
@Suite struct ScanCommandInterleavingTests {
    typealias Machine = ScanStateMachineTests
    typealias Driver = ScanAfterConnectionTests.Driver

    struct Procedure {
        let commands: HCIReturnParameters
        let features: LESupportedFeatures
        let enableOpcode: HCIOpcode
        let parametersOpcode: HCIOpcode
        /// The kernel's scan enable command's parameters.
        let on: [UInt8]
        let off: [UInt8]
    }

    static let legacy = Procedure(
        commands: Machine.legacyCommands, features: [], enableOpcode: .leSetScanEnable,
        parametersOpcode: .leSetScanParameters, on: [0x01, 0x01], off: [0x00, 0x00])
    static let extended = Procedure(
        commands: Machine.extendedCommands, features: .extendedAdvertising, enableOpcode: .leSetExtendedScanEnable,
        parametersOpcode: .leSetExtendedScanParameters, on: [0x01, 0x01, 0, 0, 0, 0], off: [0x00, 0x00, 0, 0, 0, 0])

    /// Our scan running in `procedure`.
    func scanning(_ procedure: Procedure) -> Driver {
        let driver = Driver()
        driver.perform(driver.machine.start(now: driver.scheduler.now))
        driver.event(Machine.complete(.readLocalVersionInformation))
        driver.event(Machine.complete(.readLocalSupportedCommands, .success, procedure.commands))
        driver.event(Machine.complete(.leReadLocalSupportedFeatures, .success, .leLocalSupportedFeatures(procedure.features)))
        driver.answerOurs()
        driver.answerOurs()
        #expect(driver.machine.phase == .scanning && driver.machine.weEnabledScan)
        return driver
    }

    /// The kernel turned our scan off (its connect, or bluetoothd's discovery ending); after the
    /// grace our parameters are answered and our enable waits in the kernel's queue.
    func ourEnableQueued(_ procedure: Procedure) -> Driver {
        let driver = scanning(procedure)
        driver.observed(procedure.enableOpcode, procedure.off)
        driver.event(Machine.complete(procedure.enableOpcode))
        driver.scheduler.advance(by: ScanStateMachine.takeOverGrace)
        #expect(driver.machine.pending?.opcode == procedure.parametersOpcode)
        driver.answerOurs()
        #expect(driver.machine.pending?.opcode == procedure.enableOpcode)
        return driver
    }

    @Test(arguments: [legacy, extended])
    func theKernelsEnableAnsweredBeforeOursQueuedMeansItsScanRuns(_ procedure: Procedure) {
        let driver = ourEnableQueued(procedure)
        driver.observed(procedure.enableOpcode, procedure.on)
        driver.event(Machine.complete(procedure.enableOpcode))
        #expect(driver.machine.phase == .listening)
        // Ours next: a controller may accept a scan enabled twice. The scan is still the kernel's.
        driver.event(Machine.complete(procedure.enableOpcode))
        #expect(driver.machine.phase == .listening)
        #expect(!driver.machine.weEnabledScan)
        #expect(driver.machine.stop() == [])
    }

    @Test(arguments: [legacy, extended])
    func ourEnableRefusedAfterTheKernelsMeansListening(_ procedure: Procedure) {
        let driver = ourEnableQueued(procedure)
        driver.observed(procedure.enableOpcode, procedure.on)
        driver.event(Machine.complete(procedure.enableOpcode))
        driver.event(Machine.complete(procedure.enableOpcode, .commandDisallowed))
        #expect(driver.machine.phase == .listening)
        #expect(driver.machine.stop() == [])
    }

    @Test(arguments: [legacy, extended])
    func theKernelsDisableAnsweredBeforeOursQueuedLeavesOurScanToStart(_ procedure: Procedure) {
        for status in [HCIStatus.success, .commandDisallowed] {
            let driver = ourEnableQueued(procedure)
            driver.observed(procedure.enableOpcode, procedure.off)
            driver.event(Machine.complete(procedure.enableOpcode, status))
            #expect(driver.machine.pending?.opcode == procedure.enableOpcode)
            driver.answerOurs()
            #expect(driver.machine.phase == .scanning && driver.machine.weEnabledScan)
        }
    }

    @Test(arguments: [legacy, extended])
    func theKernelsDisableAfterOurEnableWasAnsweredIsTakenBackAfterTheGrace(_ procedure: Procedure) {
        let driver = ourEnableQueued(procedure)
        driver.answerOurs()
        #expect(driver.machine.phase == .scanning)
        driver.observed(procedure.enableOpcode, procedure.off)
        driver.event(Machine.complete(procedure.enableOpcode))
        #expect(driver.machine.phase == .waitingToRetry && !driver.machine.weEnabledScan)
        driver.sent = []
        driver.scheduler.advance(by: ScanStateMachine.takeOverGrace)
        #expect(driver.sent.map(\.command.opcode) == [procedure.parametersOpcode])
        driver.answerOurs()
        driver.answerOurs()
        #expect(driver.machine.phase == .scanning && driver.machine.weEnabledScan)
    }

    @Test(arguments: [legacy, extended])
    func theKernelsDisableRefusedLeavesOurScanAsItIs(_ procedure: Procedure) {
        let driver = scanning(procedure)
        driver.observed(procedure.enableOpcode, procedure.off)
        driver.event(Machine.complete(procedure.enableOpcode, .commandDisallowed))
        #expect(driver.machine.phase == .scanning && driver.machine.weEnabledScan)
    }

    @Test(arguments: [legacy, extended])
    func theKernelsScanDuringOurParametersIsListenedTo(_ procedure: Procedure) {
        let driver = scanning(procedure)
        driver.observed(procedure.enableOpcode, procedure.off)
        driver.event(Machine.complete(procedure.enableOpcode))
        driver.scheduler.advance(by: ScanStateMachine.takeOverGrace)
        // The kernel's parameters and enable went first; ours are refused behind them.
        driver.observed(procedure.parametersOpcode, [])
        driver.event(Machine.complete(procedure.parametersOpcode))
        driver.observed(procedure.enableOpcode, procedure.on)
        driver.event(Machine.complete(procedure.enableOpcode))
        #expect(driver.machine.phase == .listening)
        driver.event(Machine.complete(procedure.parametersOpcode, .commandDisallowed))
        #expect(driver.machine.phase == .listening && driver.machine.pending == nil)
        #expect(driver.machine.stop() == [])
    }
}
