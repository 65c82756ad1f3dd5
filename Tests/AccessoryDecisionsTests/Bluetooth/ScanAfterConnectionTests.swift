import AccessoryCodecs
import AccessoryCore
import Testing
@testable import AccessoryDecisions

/// An app's channel: the kernel scans for the peer over our scan (we listen to
/// it), then connects, and its scan ends with the connection. The machine is
/// driven as the adapter drives it, its retry and watchdog timers armed on a
/// ManualScheduler, so the test sees when our scan comes back.
@Suite struct ScanAfterConnectionTests {
    typealias Machine = ScanStateMachineTests

    final class Driver {
        let scheduler = ManualScheduler(ManualClock(MonotonicInstant(nanoseconds: 1_000_000_000)))
        var machine = ScanStateMachine(exclusive: false, scanType: .passive, watchdog: .seconds(90))
        var sent: [(at: MonotonicInstant, command: ScanCommand)] = []
        var retryTimer: TimerToken?

        func perform(_ actions: [ScanStateMachine.Action]) {
            for action in actions {
                switch action {
                case .send(let command): sent.append((scheduler.now, command))
                case .scheduleRetry(let delay):
                    if let retryTimer { scheduler.cancel(retryTimer) }
                    retryTimer = scheduler.at(scheduler.now.advanced(by: delay)) { [unowned self] in
                        retryTimer = nil
                        perform(machine.retryDue(now: scheduler.now))
                    }
                default: break
                }
            }
        }

        /// The watchdog's looks, every 30 s as the adapter's for a 90 s watchdog.
        func tick() {
            scheduler.at(scheduler.now.advanced(by: .seconds(30))) { [unowned self] in
                perform(machine.tick(now: scheduler.now))
                tick()
            }
        }

        func event(_ event: HCIEvent) { perform(machine.received(event, now: scheduler.now)) }
        func observed(_ opcode: HCIOpcode, _ parameters: [UInt8]) {
            perform(machine.observed(HCICommandPacket(opcode: opcode, parameters: parameters)))
        }
        /// Answers our pending command with success, as the controller does.
        func answerOurs() {
            guard let pending = machine.pending else { return }
            event(Machine.complete(pending.opcode))
        }
    }

    /// Our legacy passive scan running, the watchdog ticking.
    func scanningDriver() -> Driver {
        let driver = Driver()
        driver.perform(driver.machine.start(now: driver.scheduler.now))
        driver.event(Machine.complete(.readLocalVersionInformation))
        driver.event(Machine.complete(.readLocalSupportedCommands, .success, Machine.legacyCommands))
        driver.event(Machine.complete(.leReadLocalSupportedFeatures, .success, .leLocalSupportedFeatures([])))
        driver.answerOurs()
        driver.answerOurs()
        driver.tick()
        #expect(driver.machine.phase == .scanning)
        return driver
    }

    /// LE Connection Complete (success, handle 0x0040, central, public peer).
    static let connectionComplete = HCIEvent.leMeta(.other(
        subevent: 0x01, parameters: [0x00, 0x40, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x01, 0xAA, 0x00, 0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00]))

    /// The kernel's connect scan: ours off, its own (duplicates filtered) on, reports of the peer.
    func kernelScansForThePeer(_ driver: Driver) {
        driver.observed(.leSetScanEnable, [0x00, 0x00])
        driver.event(Machine.complete(.leSetScanEnable))
        driver.observed(.leSetScanParameters, [0x00, 0x60, 0x00, 0x30, 0x00, 0x00, 0x01])
        driver.event(Machine.complete(.leSetScanParameters))
        driver.observed(.leSetScanEnable, [0x01, 0x01])
        driver.event(Machine.complete(.leSetScanEnable))
        driver.event(Machine.report)
        #expect(driver.machine.phase == .listening)
    }

    @Test func theScanIsTakenBackAfterTheGraceOnceTheConnectionIsMade() {
        let driver = scanningDriver()
        driver.scheduler.advance(by: .seconds(10))
        kernelScansForThePeer(driver)
        // The controller stops scanning to connect; no scan command follows.
        driver.scheduler.advance(by: .milliseconds(100))
        let connected = driver.scheduler.now
        driver.event(Self.connectionComplete)
        driver.sent = []
        driver.scheduler.advance(by: ScanStateMachine.takeOverGrace)
        #expect(driver.sent.map(\.command) == [Machine.legacyParameters])
        #expect(driver.sent.first?.at == connected.advanced(by: ScanStateMachine.takeOverGrace))
        driver.answerOurs()
        driver.answerOurs()
        #expect(driver.machine.phase == .scanning && driver.machine.weEnabledScan)
    }

    @Test func aProcessStillScanningAfterTheConnectionIsListenedToAgain() {
        let driver = scanningDriver()
        kernelScansForThePeer(driver)
        driver.event(Self.connectionComplete)
        driver.scheduler.advance(by: ScanStateMachine.takeOverGrace)
        #expect(driver.sent.last?.command == Machine.legacyParameters)
        driver.event(Machine.complete(.leSetScanParameters, .commandDisallowed))
        #expect(driver.machine.phase == .listening)
        #expect(!driver.machine.weEnabledScan)
        #expect(driver.machine.stop() == [])
    }

    @Test func aConnectionDuringOurOwnScanChangesNothing() {
        let driver = scanningDriver()
        #expect(driver.machine.received(Self.connectionComplete, now: driver.scheduler.now) == [])
        #expect(driver.machine.phase == .scanning)
    }
}
