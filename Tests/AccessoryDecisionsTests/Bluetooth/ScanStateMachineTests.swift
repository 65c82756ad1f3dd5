import AccessoryCodecs
import AccessoryCore
import Testing
@testable import AccessoryDecisions

/// The scan decisions, driven by hand: events as a controller would send
/// them, time from a manual clock.
@Suite struct ScanStateMachineTests {
    typealias Action = ScanStateMachine.Action

    static let legacyParameters = ScanCommand.hci(.leSetScanParameters(
        LEScanParameters(scanType: .passive, interval: ScanStateMachine.scanInterval, window: ScanStateMachine.scanWindow)))
    static let legacyEnable = ScanCommand.hci(.leSetScanEnable(enabled: true, filterDuplicates: false))
    static let legacyDisable = ScanCommand.hci(.leSetScanEnable(enabled: false, filterDuplicates: false))

    let clock = ManualClock(MonotonicInstant(nanoseconds: 1_000_000_000))

    static func complete(_ opcode: HCIOpcode, _ status: HCIStatus = .success,
                         _ parameters: HCIReturnParameters = .noParameters) -> HCIEvent {
        .commandComplete(HCICommandComplete(allowedCommandPackets: 1, opcode: opcode, status: status, returnParameters: parameters))
    }

    /// Supported commands with the given bits set.
    static func commands(_ positions: [HCISupportedCommands.Position]) -> HCIReturnParameters {
        var octets = [UInt8](repeating: 0, count: 64)
        for position in positions { octets[position.octet] |= 1 << UInt8(position.bit) }
        return .localSupportedCommands(HCISupportedCommands(octets: octets)!)
    }

    static let legacyCommands = commands([.leSetScanParameters, .leSetScanEnable])
    static let extendedCommands = commands([.leSetScanParameters, .leSetScanEnable, .leSetExtendedScanParameters, .leSetExtendedScanEnable])

    static let report = HCIEvent.leMeta(.advertisingReports([]))

    /// Runs the discovery reads with these answers; returns the first scan command sent.
    func discover(_ machine: inout ScanStateMachine, commands: HCIReturnParameters = legacyCommands,
                  features: LESupportedFeatures = []) -> [Action] {
        #expect(machine.start(now: clock.now) == [.send(.hci(.readLocalVersionInformation))])
        #expect(machine.received(Self.complete(.readLocalVersionInformation), now: clock.now)
            == [.send(.hci(.readLocalSupportedCommands))])
        #expect(machine.received(Self.complete(.readLocalSupportedCommands, .success, commands), now: clock.now)
            == [.send(.hci(.leReadLocalSupportedFeatures))])
        return machine.received(
            Self.complete(.leReadLocalSupportedFeatures, .success, .leLocalSupportedFeatures(features)), now: clock.now)
    }

    func scanning(watchdog: Duration? = .seconds(90)) -> ScanStateMachine {
        var machine = ScanStateMachine(exclusive: false, scanType: .passive, watchdog: watchdog)
        _ = discover(&machine)
        _ = machine.received(Self.complete(.leSetScanParameters), now: clock.now)
        _ = machine.received(Self.complete(.leSetScanEnable), now: clock.now)
        return machine
    }

    @Test func legacyControllerGetsPassiveScanWithDuplicatesReported() {
        var machine = ScanStateMachine(exclusive: false, scanType: .passive, watchdog: nil)
        #expect(discover(&machine) == [.send(Self.legacyParameters)])
        #expect(machine.received(Self.complete(.leSetScanParameters), now: clock.now) == [.send(Self.legacyEnable)])
        #expect(machine.received(Self.complete(.leSetScanEnable), now: clock.now) == [.scanStarted(.legacy, .passive, notable: true)])
        #expect(machine.phase == .scanning)
        #expect(machine.weEnabledScan)
    }

    @Test func extendedScanningNeedsBothTheCommandsAndTheFeature() {
        var commandsOnly = ScanStateMachine(exclusive: false, scanType: .active, watchdog: nil)
        let legacyActive = ScanCommand.hci(.leSetScanParameters(
            LEScanParameters(scanType: .active, interval: ScanStateMachine.scanInterval, window: ScanStateMachine.scanWindow)))
        #expect(discover(&commandsOnly, commands: Self.extendedCommands) == [.send(legacyActive)])

        var both = ScanStateMachine(exclusive: false, scanType: .active, watchdog: nil)
        let extended = ScanCommand.hci(.leSetExtendedScanParameters(LEExtendedScanParameters(
            le1M: LEScanPHYParameters(scanType: .active, interval: ScanStateMachine.scanInterval, window: ScanStateMachine.scanWindow))))
        #expect(discover(&both, commands: Self.extendedCommands, features: .extendedAdvertising) == [.send(extended)])
        #expect(both.received(Self.complete(.leSetExtendedScanParameters), now: clock.now)
            == [.send(.hci(.leSetExtendedScanEnable(enabled: true, filterDuplicates: .disabled)))])
        #expect(both.received(Self.complete(.leSetExtendedScanEnable), now: clock.now) == [.scanStarted(.extended, .active, notable: true)])
    }

    @Test func extendedParametersUnknownAfterAllFallsBackToLegacy() {
        var machine = ScanStateMachine(exclusive: false, scanType: .passive, watchdog: nil)
        _ = discover(&machine, commands: Self.extendedCommands, features: .extendedAdvertising)
        let refused = HCIEvent.commandStatus(HCICommandStatus(status: .unknownCommand, allowedCommandPackets: 1, opcode: .leSetExtendedScanParameters))
        #expect(machine.received(refused, now: clock.now) == [.send(Self.legacyParameters)])
        #expect(machine.procedure == .legacy)
    }

    @Test func exclusiveControllerIsResetAndGetsItsEventMasks() {
        var machine = ScanStateMachine(exclusive: true, scanType: .passive, watchdog: nil)
        #expect(machine.start(now: clock.now) == [.send(.reset)])
        #expect(machine.received(Self.complete(.reset), now: clock.now) == [.send(.setEventMask(ScanCommand.eventMaskWithLEMeta))])
        #expect(machine.received(Self.complete(.setEventMask), now: clock.now) == [.send(.hci(.readLocalVersionInformation))])
        _ = machine.received(Self.complete(.readLocalVersionInformation), now: clock.now)
        _ = machine.received(Self.complete(.readLocalSupportedCommands, .success, Self.extendedCommands), now: clock.now)
        let afterFeatures = machine.received(
            Self.complete(.leReadLocalSupportedFeatures, .success, .leLocalSupportedFeatures(.extendedAdvertising)), now: clock.now)
        #expect(afterFeatures == [.send(.hci(.leSetEventMask(LEEventMask.controllerDefault.union(.extendedAdvertisingReport))))])
        #expect(ScanCommand.setEventMask(ScanCommand.eventMaskWithLEMeta).encodedH4()
            == [0x01, 0x01, 0x0C, 0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x1F, 0x00, 0x20])
        #expect(ScanCommand.reset.encodedH4() == [0x01, 0x03, 0x0C, 0x00])
    }

    @Test func refusedScanMeansListeningSaidOnceAndNothingToUndo() {
        var machine = ScanStateMachine(exclusive: false, scanType: .passive, watchdog: .seconds(90))
        _ = discover(&machine)
        #expect(machine.received(Self.complete(.leSetScanParameters, .commandDisallowed), now: clock.now)
            == [.listening(.refused(.leSetScanParameters, .commandDisallowed), firstTime: true)])
        #expect(machine.phase == .listening)

        // Silence for a watchdog period: try to scan again, refused again, not announced again.
        clock.advance(by: .seconds(90))
        #expect(machine.tick(now: clock.now) == [.send(Self.legacyParameters)])
        #expect(machine.received(Self.complete(.leSetScanParameters), now: clock.now) == [.send(Self.legacyEnable)])
        #expect(machine.received(Self.complete(.leSetScanEnable, .controllerBusy), now: clock.now)
            == [.listening(.refused(.leSetScanEnable, .controllerBusy), firstTime: false)])
        #expect(machine.stop() == [])
    }

    @Test func reportsWhileListeningKeepTheWatchdogQuiet() {
        var machine = ScanStateMachine(exclusive: false, scanType: .passive, watchdog: .seconds(90))
        _ = discover(&machine)
        _ = machine.received(Self.complete(.leSetScanParameters, .commandDisallowed), now: clock.now)
        clock.advance(by: .seconds(60))
        _ = machine.received(Self.report, now: clock.now)
        clock.advance(by: .seconds(60))
        #expect(machine.tick(now: clock.now) == [])
    }

    @Test func anotherProcessTakingTheScanMakesUsListenAndNotUndoIt() {
        var machine = scanning()
        _ = machine.observed(HCICommandPacket(opcode: .leSetScanEnable, parameters: [0x01, 0x00]))
        #expect(machine.received(Self.complete(.leSetScanEnable), now: clock.now)
            == [.listening(.scanningByAnotherProcess, firstTime: true)])
        #expect(!machine.weEnabledScan)
        #expect(machine.stop() == [])
    }

    @Test func anotherProcessStoppingTheScanIsTakenUpAfterTheGrace() {
        var machine = scanning()
        _ = machine.observed(HCICommandPacket(opcode: .leSetScanEnable, parameters: [0x00, 0x00]))
        #expect(machine.received(Self.complete(.leSetScanEnable), now: clock.now)
            == [.scanStoppedByAnotherProcess, .forgetPendingFragments, .scheduleRetry(after: ScanStateMachine.takeOverGrace)])
        clock.advance(by: ScanStateMachine.takeOverGrace)
        #expect(machine.retryDue(now: clock.now) == [.send(Self.legacyParameters)])
        _ = machine.received(Self.complete(.leSetScanParameters), now: clock.now)
        #expect(machine.received(Self.complete(.leSetScanEnable), now: clock.now) == [.scanStarted(.legacy, .passive, notable: false)])
        #expect(machine.weEnabledScan)
    }

    /// bluetoothd's discovery, one cycle: it turns scanning on over ours, then off; we take it back.
    func discoveryCycle(_ machine: inout ScanStateMachine) -> [Action] {
        _ = machine.observed(HCICommandPacket(opcode: .leSetScanEnable, parameters: [0x01, 0x01]))
        _ = machine.received(Self.complete(.leSetScanEnable), now: clock.now)
        _ = machine.observed(HCICommandPacket(opcode: .leSetScanEnable, parameters: [0x00, 0x00]))
        _ = machine.received(Self.complete(.leSetScanEnable), now: clock.now)
        clock.advance(by: ScanStateMachine.takeOverGrace)
        _ = machine.retryDue(now: clock.now)
        _ = machine.received(Self.complete(.leSetScanParameters), now: clock.now)
        return machine.received(Self.complete(.leSetScanEnable), now: clock.now)
    }

    @Test func takingTheScanBackAfterEachDiscoveryCycleIsNotNotable() {
        var machine = scanning()
        for _ in 0..<5 {
            #expect(discoveryCycle(&machine) == [.scanStarted(.legacy, .passive, notable: false)])
        }
    }

    @Test func theFirstStartAfterARecoveryIsNotableAndTheNextTakeBackIsNot() {
        var machine = scanning()
        _ = machine.received(.hardwareError(code: 0x42), now: clock.now)
        _ = machine.retryDue(now: clock.now)
        _ = discover(&machine)
        _ = machine.received(Self.complete(.leSetScanParameters), now: clock.now)
        #expect(machine.received(Self.complete(.leSetScanEnable), now: clock.now)
            == [.scanStarted(.legacy, .passive, notable: true)])
        #expect(discoveryCycle(&machine) == [.scanStarted(.legacy, .passive, notable: false)])
    }

    @Test func activityForTheStatusLine() {
        var machine = ScanStateMachine(exclusive: false, scanType: .passive, watchdog: nil)
        #expect(machine.activity == .starting)
        machine = scanning()
        #expect(machine.activity == .scanning)
        _ = machine.observed(HCICommandPacket(opcode: .leSetScanEnable, parameters: [0x01, 0x01]))
        _ = machine.received(Self.complete(.leSetScanEnable), now: clock.now)
        #expect(machine.activity == .listening)
        // bluetoothd's cycle ends: the grace and the set-up stay "listening" until our scan runs.
        _ = machine.observed(HCICommandPacket(opcode: .leSetScanEnable, parameters: [0x00, 0x00]))
        _ = machine.received(Self.complete(.leSetScanEnable), now: clock.now)
        #expect(machine.activity == .listening)
        _ = machine.retryDue(now: clock.now)
        #expect(machine.activity == .listening)
        _ = machine.received(Self.complete(.leSetScanParameters), now: clock.now)
        _ = machine.received(Self.complete(.leSetScanEnable), now: clock.now)
        #expect(machine.activity == .scanning)
        _ = machine.received(.hardwareError(code: 0x42), now: clock.now)
        #expect(machine.activity == .recovering)
        _ = machine.retryDue(now: clock.now)
        #expect(machine.activity == .recovering)
    }

    @Test func aStartInAnotherProcedureIsNotable() {
        var machine = ScanStateMachine(exclusive: false, scanType: .passive, watchdog: nil)
        _ = discover(&machine, commands: Self.extendedCommands, features: .extendedAdvertising)
        _ = machine.received(Self.complete(.leSetExtendedScanParameters), now: clock.now)
        #expect(machine.received(Self.complete(.leSetExtendedScanEnable), now: clock.now)
            == [.scanStarted(.extended, .passive, notable: true)])
        // Set up again on a controller that now offers legacy scanning only (a firmware change after a reset).
        _ = machine.received(.hardwareError(code: 0x01), now: clock.now)
        _ = machine.retryDue(now: clock.now)
        _ = discover(&machine)
        _ = machine.received(Self.complete(.leSetScanParameters), now: clock.now)
        #expect(machine.received(Self.complete(.leSetScanEnable), now: clock.now)
            == [.scanStarted(.legacy, .passive, notable: true)])
    }

    @Test func anotherProcessRestartingItsOwnScanDuringTheGraceWins() {
        var machine = scanning()
        _ = machine.observed(HCICommandPacket(opcode: .leSetScanEnable, parameters: [0x00, 0x00]))
        _ = machine.received(Self.complete(.leSetScanEnable), now: clock.now)
        _ = machine.observed(HCICommandPacket(opcode: .leSetScanEnable, parameters: [0x01, 0x01]))
        #expect(machine.received(Self.complete(.leSetScanEnable), now: clock.now)
            == [.listening(.scanningByAnotherProcess, firstTime: true)])
        #expect(machine.retryDue(now: clock.now) == [])
    }

    @Test func stopTurnsOffOnlyOurOwnScan() {
        var machine = scanning()
        #expect(machine.stop() == [.send(Self.legacyDisable)])
        #expect(machine.phase == .stopped)
    }

    @Test func watchdogRestartsASilentScanAndReportsKeepItQuiet() {
        var machine = scanning(watchdog: .seconds(90))
        clock.advance(by: .seconds(89))
        #expect(machine.tick(now: clock.now) == [])
        _ = machine.received(Self.report, now: clock.now)
        clock.advance(by: .seconds(89))
        #expect(machine.tick(now: clock.now) == [])
        clock.advance(by: .seconds(1))
        #expect(machine.tick(now: clock.now)
            == [.watchdogRestart(silence: .seconds(90), repeated: false), .forgetPendingFragments, .send(Self.legacyDisable)])
        #expect(machine.received(Self.complete(.leSetScanEnable), now: clock.now) == [.send(Self.legacyEnable)])
        // A restart is not a new start: nothing to announce.
        #expect(machine.received(Self.complete(.leSetScanEnable), now: clock.now) == [])
        #expect(machine.phase == .scanning && machine.weEnabledScan)

        // Still silent: a quiet place; the next restart says it is a repeat.
        clock.advance(by: .seconds(90))
        #expect(machine.tick(now: clock.now).first == .watchdogRestart(silence: .seconds(90), repeated: true))
        _ = machine.received(Self.complete(.leSetScanEnable), now: clock.now)
        _ = machine.received(Self.complete(.leSetScanEnable), now: clock.now)
        _ = machine.received(Self.report, now: clock.now)
        clock.advance(by: .seconds(90))
        #expect(machine.tick(now: clock.now).first == .watchdogRestart(silence: .seconds(90), repeated: false))
    }

    @Test func watchdogOffNeverRestarts() {
        var machine = scanning(watchdog: nil)
        clock.advance(by: .seconds(86_400))
        #expect(machine.tick(now: clock.now) == [])
    }

    @Test func hardwareErrorsRecoverWithGrowingDelaysUntilScanningWorks() {
        var machine = scanning()
        #expect(machine.received(.hardwareError(code: 0x42), now: clock.now)
            == [.recovering(.hardwareError(code: 0x42), retryAfter: .seconds(1)), .forgetPendingFragments, .scheduleRetry(after: .seconds(1))])
        #expect(!machine.weEnabledScan)
        #expect(machine.retryDue(now: clock.now) == [.send(.hci(.readLocalVersionInformation))])
        #expect(machine.commandTimedOut(now: clock.now)
            == [.recovering(.commandTimedOut(.readLocalVersionInformation), retryAfter: .seconds(2)), .forgetPendingFragments, .scheduleRetry(after: .seconds(2))])
        _ = discover(&machine)
        _ = machine.received(Self.complete(.leSetScanParameters), now: clock.now)
        _ = machine.received(Self.complete(.leSetScanEnable), now: clock.now)
        // Working again: the next failure starts from the first delay.
        #expect(machine.received(.hardwareError(code: 0x01), now: clock.now).contains(.scheduleRetry(after: .seconds(1))))
    }

    @Test func aResetBySomeoneElseMeansSettingUpAgain() {
        var machine = scanning()
        #expect(machine.received(Self.complete(.reset), now: clock.now).first
            == .recovering(.controllerReset, retryAfter: .seconds(1)))
        #expect(machine.phase == .waitingToRetry)
    }

    @Test func otherFailuresRecoverInsteadOfListening() {
        var machine = ScanStateMachine(exclusive: false, scanType: .passive, watchdog: nil)
        _ = discover(&machine)
        #expect(machine.received(Self.complete(.leSetScanParameters, .invalidCommandParameters), now: clock.now).first
            == .recovering(.commandFailed(.leSetScanParameters, .invalidCommandParameters), retryAfter: .seconds(1)))
    }

    @Test func answersToCommandsWeDidNotSendAreNotOurs() {
        var machine = ScanStateMachine(exclusive: false, scanType: .passive, watchdog: nil)
        _ = machine.start(now: clock.now)
        #expect(machine.received(Self.complete(.leSetScanEnable), now: clock.now) == [])
        #expect(machine.pending == .hci(.readLocalVersionInformation))
    }
}

@Suite struct RetryBackoffTests {
    @Test func doublesUpToTheCeilingAndStartsOverAfterReset() {
        var backoff = RetryBackoff(initial: .seconds(1), maximum: .seconds(10))
        #expect((0..<6).map { _ in backoff.nextDelay() } == [1, 2, 4, 8, 10, 10].map { Duration.seconds($0) })
        backoff.reset()
        #expect(backoff.nextDelay() == .seconds(1))
    }

    @Test func manyAttemptsNeitherTrapNorExceedTheCeiling() {
        var backoff = RetryBackoff()
        for _ in 0..<200 { #expect(backoff.nextDelay() <= .seconds(60)) }
    }
}
