import AccessoryCodecs
import AccessoryCore

/// What the agent does with one controller's scan, as decisions only: it is
/// fed the controller's events, the commands other host processes sent
/// (a raw HCI socket sees those too), timeouts and the time, and answers with
/// actions for the adapter to carry out. No socket, no timer, no clock of its
/// own, so every path is tested with a manual clock.
///
/// Setup never resets a shared controller: Read Local Version, Read Local
/// Supported Commands and LE Read Local Supported Features decide between
/// extended and legacy scanning (never both), then scan parameters and
/// enable with duplicate filtering off, one command at a time.
///
/// Coexistence: when another process (bluetoothd through the kernel) has the
/// controller scanning, its reports reach our socket too, so the agent
/// listens instead of fighting; when that process turns scanning off, the
/// agent takes it up again after a grace period, as it does after a connection
/// made while it listened (the kernel's scan for the peer). On stop it turns off only
/// a scan it turned on itself.
///
/// Answers name only the opcode. The kernel sends every command, its own and
/// ours, through one queue, the next once the last is answered, and shows its
/// own on our socket as it sends them: an answer is another process's when
/// such a command of its is outstanding, else ours.
public struct ScanStateMachine {
    public enum Phase: Hashable, Sendable {
        case idle
        case settingUp
        /// Our scan runs.
        case scanning
        /// Another process scans, or our scan commands were refused: we hear whatever is reported.
        case listening
        /// A retry is scheduled (recovery, or taking the scan back).
        case waitingToRetry
        case stopped
    }

    /// What the scan amounts to for the administrator (STATUS=): transient
    /// phases (setting up, the grace before taking the scan back) keep the
    /// activity they came from, so bluetoothd's discovery cycles do not
    /// show as restarts.
    public enum Activity: String, Hashable, Sendable {
        case starting
        case scanning
        case listening
        case recovering
    }

    public enum Procedure: String, Hashable, Sendable {
        case legacy
        case extended
    }

    public enum ListeningReason: Hashable, Sendable {
        /// Our command was refused (Command Disallowed, Controller Busy): someone else has the scan.
        case refused(HCIOpcode, HCIStatus)
        /// Another process turned scanning on over ours.
        case scanningByAnotherProcess
    }

    public enum RecoveryReason: Hashable, Sendable {
        case hardwareError(code: UInt8)
        case controllerReset
        case commandTimedOut(HCIOpcode)
        case commandFailed(HCIOpcode, HCIStatus)
    }

    public enum Action: Hashable, Sendable {
        /// Write this command; call `commandTimedOut` if it is not answered in `commandTimeout`.
        case send(ScanCommand)
        /// Call `retryDue` after this long.
        case scheduleRetry(after: Duration)
        /// Our scan runs (after setup, not after a watchdog restart).
        /// `notable` when the administrator should hear of it: the first
        /// start, the first after a recovery, or a start in another procedure
        /// or type than the last one announced. Taking the scan back after
        /// another process's discovery (every cycle of bluetoothd's) is not.
        case scanStarted(Procedure, BluetoothSettings.ScanType, notable: Bool)
        /// The agent only listens now; `firstTime` is true once per controller.
        case listening(ListeningReason, firstTime: Bool)
        case recovering(RecoveryReason, retryAfter: Duration)
        /// Nothing heard for `silence`; the scan is being restarted. `repeated`
        /// when nothing was heard since the last restart either (a quiet
        /// place, worth a journal entry only the first time).
        case watchdogRestart(silence: Duration, repeated: Bool)
        /// Another process turned scanning off; the agent scans again after a grace period.
        case scanStoppedByAnotherProcess
        /// A connection was made while the agent listened: the scan the kernel ran to find the
        /// peer is over; the agent scans again after a grace period.
        case connectionEndedTheScanListenedTo
        /// Extended-advertising fragments pending for this controller are stale.
        case forgetPendingFragments
    }

    public static let commandTimeout: Duration = .seconds(3)
    /// How long the agent waits after another process stopped scanning, so
    /// that process (or the kernel's own background scan) may go first.
    public static let takeOverGrace: Duration = .seconds(2)
    /// LE Connection Complete and LE Enhanced Connection Complete.
    public static let connectionCompleteSubevents: Set<UInt8> = [0x01, 0x0A]
    /// Scan interval and window, in 0.625 ms slots: 60 ms every 60 ms would
    /// starve Wi-Fi on combo chips; half of it is what BlueZ's discovery uses too.
    public static let scanInterval: UInt16 = 0x0060
    public static let scanWindow: UInt16 = 0x0030

    public let exclusive: Bool
    public let scanType: BluetoothSettings.ScanType
    public let watchdog: Duration?
    public private(set) var phase: Phase = .idle
    public private(set) var activity: Activity = .starting
    public private(set) var procedure: Procedure?
    /// We turned scanning on and nobody has turned it off since: stop() turns it off.
    public private(set) var weEnabledScan = false
    public private(set) var pending: ScanCommand?

    private var plan: [ScanCommand] = []
    private var supportedCommands: HCISupportedCommands?
    private var backoff = RetryBackoff()
    private var announcedListening = false
    /// The scan last announced as notable; nil until the first start.
    private var announcedScan: (procedure: Procedure, type: BluetoothSettings.ScanType)?
    /// A recovery was logged since the last start: the next start closes it.
    private var recoveredSinceStart = false
    private var lastActivity: MonotonicInstant = .zero
    private var retryTakesScanOnly = false
    private var restartingForWatchdog = false
    /// Nothing has been heard since the last watchdog restart.
    private var silentSinceWatchdogRestart = false
    /// Scan commands other processes sent and are not answered yet, oldest first (`enable` nil
    /// for parameters): the answer to one of ours with the same opcode comes after theirs.
    private var othersScanCommands: [(opcode: HCIOpcode, enable: Bool?)] = []
    /// The scan commands of other processes followed here: those we send too, always answered
    /// with Command Complete.
    static let followedOpcodes: Set<HCIOpcode> = [
        .leSetScanParameters, .leSetScanEnable, .leSetExtendedScanParameters, .leSetExtendedScanEnable,
    ]

    public init(exclusive: Bool, scanType: BluetoothSettings.ScanType, watchdog: Duration?) {
        self.exclusive = exclusive
        self.scanType = scanType
        self.watchdog = watchdog
    }

    // MARK: Inputs

    public mutating func start(now: MonotonicInstant) -> [Action] {
        lastActivity = now
        phase = .settingUp
        procedure = nil
        supportedCommands = nil
        plan = exclusive ? [.reset, .setEventMask(ScanCommand.eventMaskWithLEMeta)] : []
        plan += [.hci(.readLocalVersionInformation), .hci(.readLocalSupportedCommands), .hci(.leReadLocalSupportedFeatures)]
        return sendNext()
    }

    /// Every event the controller sent, ours or not.
    public mutating func received(_ event: HCIEvent, now: MonotonicInstant) -> [Action] {
        switch event {
        case .leMeta(.advertisingReports), .leMeta(.extendedAdvertisingReports):
            lastActivity = now
            silentSinceWatchdogRestart = false
            return []
        case .leMeta(.other(let subevent, _)) where Self.connectionCompleteSubevents.contains(subevent):
            return connectionCompleted()
        case .hardwareError(let code):
            return recover(.hardwareError(code: code), controllerLostState: true)
        case .commandComplete(let complete):
            return answered(complete.opcode, status: complete.status ?? .success, parameters: complete.returnParameters, now: now)
        case .commandStatus(let status):
            return answered(status.opcode, status: status.status, parameters: .noParameters, now: now)
        default:
            return []
        }
    }

    /// A command another host process sent to the controller.
    public mutating func observed(_ command: HCICommandPacket) -> [Action] {
        guard Self.followedOpcodes.contains(command.opcode) else { return [] }
        othersScanCommands.append((command.opcode, command.scanEnable))
        // Every command is answered; should answers get lost (a reset), keep the list short.
        if othersScanCommands.count > 8 { othersScanCommands.removeFirst() }
        return []
    }

    public mutating func commandTimedOut(now: MonotonicInstant) -> [Action] {
        guard let pending else { return [] }
        return recover(.commandTimedOut(pending.opcode), controllerLostState: false)
    }

    public mutating func retryDue(now: MonotonicInstant) -> [Action] {
        guard phase == .waitingToRetry else { return [] }
        if retryTakesScanOnly, procedure != nil {
            lastActivity = now
            phase = .settingUp
            plan = scanCommands()
            return sendNext()
        }
        return start(now: now)
    }

    /// The watchdog: call now and then (the adapter does every few seconds).
    public mutating func tick(now: MonotonicInstant) -> [Action] {
        guard let watchdog, pending == nil, now.duration(since: lastActivity) >= watchdog else { return [] }
        let silence = now.duration(since: lastActivity)
        lastActivity = now
        switch phase {
        case .scanning:
            restartingForWatchdog = true
            plan = [enableCommand(true)]
            let repeated = silentSinceWatchdogRestart
            silentSinceWatchdogRestart = true
            return [.watchdogRestart(silence: silence, repeated: repeated), .forgetPendingFragments]
                + send(enableCommand(false))
        case .listening:
            // Nobody reports anything: maybe nobody scans any more. Try to.
            phase = .settingUp
            plan = scanCommands()
            return sendNext()
        default:
            return []
        }
    }

    /// The agent is stopping: what to send to leave the scan as it was found.
    public mutating func stop() -> [Action] {
        phase = .stopped
        plan = []
        pending = nil
        guard weEnabledScan, procedure != nil else { return [] }
        weEnabledScan = false
        return [.send(enableCommand(false))]
    }

    // MARK: Answers

    private mutating func answered(
        _ opcode: HCIOpcode, status: HCIStatus, parameters: HCIReturnParameters, now: MonotonicInstant
    ) -> [Action] {
        if let pending, pending.opcode == opcode, !othersScanCommands.contains(where: { $0.opcode == opcode }) {
            self.pending = nil
            return ourCommandAnswered(pending, status: status, parameters: parameters, now: now)
        }
        if let index = othersScanCommands.firstIndex(where: { $0.opcode == opcode }) {
            guard let enable = othersScanCommands.remove(at: index).enable, status.isSuccess else { return [] }
            return enable ? anotherProcessStartedScanning() : anotherProcessStoppedScanning()
        }
        if opcode == .reset && status.isSuccess && phase != .stopped && !(pending == .reset) {
            // The kernel (or someone) reset the controller: our setup is gone.
            return recover(.controllerReset, controllerLostState: true)
        }
        return []
    }

    private mutating func ourCommandAnswered(
        _ command: ScanCommand, status: HCIStatus, parameters: HCIReturnParameters, now: MonotonicInstant
    ) -> [Action] {
        guard phase == .settingUp || phase == .scanning || phase == .listening else { return [] }
        if status.isSuccess {
            switch parameters {
            case .localSupportedCommands(let commands): supportedCommands = commands
            case .leLocalSupportedFeatures(let features): chooseProcedure(features)
            default: break
            }
            if command == .hci(.leReadLocalSupportedFeatures) { plan += scanCommands() }
            if command.scanEnable == true {
                weEnabledScan = true
                lastActivity = now
                backoff.reset()
                let wasWatchdog = restartingForWatchdog
                restartingForWatchdog = false
                phase = .scanning
                activity = .scanning
                return wasWatchdog ? [] : [scanStarted()]
            }
            if command.scanEnable == false { weEnabledScan = false }
            return sendNext()
        }

        switch command {
        case .hci(.readLocalVersionInformation), .hci(.readLocalSupportedCommands), .setEventMask, .hci(.leSetEventMask):
            // Informational or best effort: go on without it.
            return sendNext()
        case .hci(.leReadLocalSupportedFeatures):
            chooseProcedure(nil)
            plan += scanCommands()
            return sendNext()
        case .hci(.leSetScanEnable(enabled: false, filterDuplicates: _)),
            .hci(.leSetExtendedScanEnable(enabled: false, filterDuplicates: _, duration: _, period: _)):
            // Disabling a scan that was not running (a watchdog restart): enable next.
            weEnabledScan = false
            return sendNext()
        case .hci(.leSetExtendedScanParameters) where status == .unknownCommand:
            // The controller advertised extended scanning but does not know it: legacy, then.
            procedure = .legacy
            plan = scanCommands()
            return sendNext()
        default:
            break
        }
        if status == .commandDisallowed || status == .controllerBusy {
            return listen(.refused(command.opcode, status))
        }
        return recover(.commandFailed(command.opcode, status), controllerLostState: false)
    }

    private mutating func anotherProcessStartedScanning() -> [Action] {
        // While we set a scan up (the procedure known), theirs reached the controller before our
        // enable, which a controller may accept over a running scan: the scan is theirs.
        guard phase == .scanning || phase == .settingUp && procedure != nil
            || phase == .waitingToRetry && retryTakesScanOnly else { return [] }
        // Their scan replaced ours; turning it off on exit would be theirs to do.
        weEnabledScan = false
        return listen(.scanningByAnotherProcess)
    }

    private mutating func anotherProcessStoppedScanning() -> [Action] {
        guard phase == .scanning || phase == .listening else { return [] }
        weEnabledScan = false
        phase = .waitingToRetry
        activity = .listening
        retryTakesScanOnly = true
        return [.scanStoppedByAnotherProcess, .forgetPendingFragments, .scheduleRetry(after: Self.takeOverGrace)]
    }

    /// The kernel connects by scanning for the peer over our scan (we listen to it). That scan
    /// serves the connection alone: once it is made, or failed, we take the scan up again after
    /// the grace instead of counting on seeing the kernel turn its scan off (missed, we would
    /// hear nothing until the watchdog). A process that still scans refuses it; we listen again.
    private mutating func connectionCompleted() -> [Action] {
        guard phase == .listening else { return [] }
        phase = .waitingToRetry
        retryTakesScanOnly = true
        return [.connectionEndedTheScanListenedTo, .forgetPendingFragments, .scheduleRetry(after: Self.takeOverGrace)]
    }

    // MARK: Helpers

    private mutating func listen(_ reason: ListeningReason) -> [Action] {
        phase = .listening
        activity = .listening
        plan = []
        pending = nil
        restartingForWatchdog = false
        let first = !announcedListening
        announcedListening = true
        return [.listening(reason, firstTime: first)]
    }

    private mutating func scanStarted() -> Action {
        let started = (procedure: procedure ?? .legacy, type: scanType)
        let notable = recoveredSinceStart || announcedScan.map { $0 != started } ?? true
        if notable { announcedScan = started }
        recoveredSinceStart = false
        return .scanStarted(started.procedure, started.type, notable: notable)
    }

    private mutating func recover(_ reason: RecoveryReason, controllerLostState: Bool) -> [Action] {
        guard phase != .stopped else { return [] }
        recoveredSinceStart = true
        activity = .recovering
        if controllerLostState { weEnabledScan = false }
        phase = .waitingToRetry
        retryTakesScanOnly = false
        restartingForWatchdog = false
        plan = []
        pending = nil
        othersScanCommands = []
        let delay = backoff.nextDelay()
        return [.recovering(reason, retryAfter: delay), .forgetPendingFragments, .scheduleRetry(after: delay)]
    }

    /// Extended scanning when the controller has both the feature and the
    /// commands; the kernel decides the same way, so the two never mix.
    private mutating func chooseProcedure(_ features: LESupportedFeatures?) {
        let extended = (supportedCommands?.supportsExtendedScanning ?? false)
            && (features?.contains(.extendedAdvertising) ?? false)
        procedure = extended ? .extended : .legacy
    }

    private func scanCommands() -> [ScanCommand] {
        let type: LEScanType = scanType == .active ? .active : .passive
        var commands: [ScanCommand] = []
        if exclusive {
            var mask = LEEventMask.controllerDefault
            if procedure == .extended { mask.insert(.extendedAdvertisingReport) }
            commands.append(.hci(.leSetEventMask(mask)))
        }
        switch procedure ?? .legacy {
        case .legacy:
            commands.append(.hci(.leSetScanParameters(
                LEScanParameters(scanType: type, interval: Self.scanInterval, window: Self.scanWindow))))
        case .extended:
            commands.append(.hci(.leSetExtendedScanParameters(LEExtendedScanParameters(
                le1M: LEScanPHYParameters(scanType: type, interval: Self.scanInterval, window: Self.scanWindow)))))
        }
        commands.append(enableCommand(true))
        return commands
    }

    private func enableCommand(_ enabled: Bool) -> ScanCommand {
        switch procedure ?? .legacy {
        case .legacy: .hci(.leSetScanEnable(enabled: enabled, filterDuplicates: false))
        case .extended: .hci(.leSetExtendedScanEnable(enabled: enabled, filterDuplicates: .disabled))
        }
    }

    private mutating func sendNext() -> [Action] {
        guard !plan.isEmpty else { return [] }
        return send(plan.removeFirst())
    }

    private mutating func send(_ command: ScanCommand) -> [Action] {
        pending = command
        return [.send(command)]
    }
}
