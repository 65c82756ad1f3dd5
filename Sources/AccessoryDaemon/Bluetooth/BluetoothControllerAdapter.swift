import AccessoryCodecs
import AccessoryCore
import AccessoryDecisions
import AccessoryPlatform
import AccessoryRadios
import Logging

/// One controller, live: its HCI socket on the event loop, its scan state
/// machine, the timers the machine asks for, and the journal entries. The
/// decisions are the machine's; this class only carries them out.
final class BluetoothControllerAdapter {
    let index: UInt16
    private let socket: HCISocket
    private var machine: ScanStateMachine
    private let loop: EventLoop
    private let ingest: AdvertisingReportIngest
    /// Where the time is read and the command, retry and watchdog timers armed.
    private let scheduler: any Scheduler
    private var logger: Logger
    private var watchToken: WatchToken?
    /// The packet being handled, without its H4 type octet; its storage is kept from packet to packet.
    private var packet: [UInt8] = []
    private var commandTimer: TimerToken?
    private var retryTimer: TimerToken?
    private var tickTimer: TimerToken?
    /// Called once when the socket fails (the controller went away or down).
    private let onFailure: (BluetoothControllerAdapter, SystemError) -> Void
    /// Called when `activity` changed (for STATUS=).
    var onActivityChange: (() -> Void)?
    private var toldActivity: ScanStateMachine.Activity = .starting

    /// The events a shared controller's socket lets through: command answers,
    /// hardware errors and LE Meta (advertising reports).
    static let filteredEvents: [UInt8] = [
        HCIEvent.commandCompleteCode, HCIEvent.commandStatusCode, HCIEvent.hardwareErrorCode, HCIEvent.leMetaCode,
    ]

    init(
        index: UInt16, exclusive: Bool, scanType: BluetoothSettings.ScanType, watchdog: Duration?,
        loop: EventLoop, ingest: AdvertisingReportIngest, scheduler: any Scheduler, logger: Logger,
        onFailure: @escaping (BluetoothControllerAdapter, SystemError) -> Void
    ) throws(SystemError) {
        if exclusive {
            // The user channel binds only to a controller that is down.
            try HCISocket.setPower(controller: index, up: false)
            socket = try HCISocket(controller: index, channel: .user)
        } else {
            socket = try HCISocket(controller: index, channel: .raw)
            // Commands too: the kernel's and bluetoothd's scan commands tell us who scans.
            try socket.setFilter(
                packetTypes: [HCISocket.commandPacketType, HCISocket.eventPacketType], events: Self.filteredEvents)
        }
        self.index = index
        self.loop = loop
        self.ingest = ingest
        self.scheduler = scheduler
        self.logger = logger
        self.logger[metadataKey: "bluetooth.controller"] = "hci\(index)"
        self.onFailure = onFailure
        machine = ScanStateMachine(exclusive: exclusive, scanType: scanType, watchdog: watchdog)
    }

    var phase: ScanStateMachine.Phase { machine.phase }
    var activity: ScanStateMachine.Activity { machine.activity }

    func start() throws(SystemError) {
        watchToken = try loop.watch(fd: socket.fd) { [unowned self] _ in readAvailable() }
        perform(machine.start(now: scheduler.now))
        scheduleTick()
    }

    /// Stops watching; turns off a scan the agent turned on, waiting briefly
    /// for the controller to confirm, when `leaveAsFound` (not when it is gone).
    func stop(leaveAsFound: Bool) {
        let actions = machine.stop()
        cancelTimers()
        if let watchToken { loop.stopWatching(watchToken) }
        watchToken = nil
        ingest.forgetPendingFragments(of: index)
        guard leaveAsFound else { return }
        for case .send(let command) in actions {
            do {
                try socket.send(command.encodedH4())
                awaitAnswer(to: command.opcode, timeout: .seconds(1))
                logger.debug("Turned off the scan accessoryd turned on")
            } catch {
                logger.debug("Could not turn off the scan: \(error)")
            }
        }
    }

    // MARK: Socket

    private func readAvailable() {
        do {
            while let type = try socket.receive(into: &packet) {
                handle(type)
            }
        } catch {
            fail(error)
        }
    }

    /// The packet just received, of H4 `type`.
    private func handle(_ type: UInt8) {
        switch type {
        case HCISocket.eventPacketType:
            let now = scheduler.now
            guard let event = ingest.ingest(event: packet, controller: index) else { return }
            perform(machine.received(event, now: now))
        case HCISocket.commandPacketType:
            guard let command = try? HCICommandPacket.decode(packet) else { return }
            perform(machine.observed(command))
        default:
            break
        }
    }

    /// For the exit path only: reads until `opcode` is answered or time is up
    /// (advertising reports may keep arriving until the controller has obeyed).
    private func awaitAnswer(to opcode: HCIOpcode, timeout: Duration) {
        let deadline = scheduler.now.advanced(by: timeout)
        while scheduler.now < deadline, socket.waitReadable(timeout: deadline.duration(since: scheduler.now)) {
            guard let packet = try? socket.receive() else { return }
            guard packet.first == HCISocket.eventPacketType, let event = try? HCIEvent.decode(packet.dropFirst()) else {
                continue
            }
            switch event {
            case .commandComplete(let complete) where complete.opcode == opcode: return
            case .commandStatus(let status) where status.opcode == opcode: return
            default: continue
            }
        }
    }

    private func fail(_ error: SystemError) {
        cancelTimers()
        if let watchToken { loop.stopWatching(watchToken) }
        watchToken = nil
        onFailure(self, error)
    }

    // MARK: Actions

    private func perform(_ actions: [ScanStateMachine.Action]) {
        // The machine has decided before its actions reach here: compare with what was last told.
        defer {
            if machine.activity != toldActivity {
                toldActivity = machine.activity
                onActivityChange?()
            }
        }
        for action in actions {
            switch action {
            case .send(let command):
                send(command)
            case .scheduleRetry(let delay):
                if let retryTimer { scheduler.cancel(retryTimer) }
                retryTimer = scheduler.at(scheduler.now.advanced(by: delay)) { [unowned self] in
                    retryTimer = nil
                    perform(machine.retryDue(now: scheduler.now))
                }
            case .scanStarted(let procedure, let type, let notable):
                // Repeats (taking the scan back after each of bluetoothd's discovery cycles) at debug.
                logger.log(.bluetoothScanStarted, level: notable ? .info : .debug,
                           "hci\(index): \(type.rawValue) \(procedure.rawValue) LE scan started, duplicates reported",
                           metadata: ["bluetooth.scan.type": "\(type.rawValue)",
                                      "bluetooth.scan.procedure": "\(procedure.rawValue)"])
            case .listening(let reason, let firstTime):
                let why: String
                switch reason {
                case .refused(let opcode, let status): why = "the controller refused \(opcode) with \(status)"
                case .scanningByAnotherProcess: why = "another process turned scanning on"
                }
                if firstTime {
                    logger.log(.bluetoothListening, level: .notice,
                               "hci\(index): \(why); listening to the reports of the scan already running instead",
                               metadata: ["bluetooth.reason": "\(why)"])
                } else {
                    logger.debug("hci\(index): listening again: \(why)")
                }
            case .recovering(let reason, let delay):
                logger.log(.bluetoothRecovering, level: .warning,
                           "hci\(index): \(Self.describe(reason)); setting up the scan again in \(delay)",
                           metadata: ["bluetooth.reason": "\(Self.describe(reason))", "retry.after": "\(delay)"])
            case .watchdogRestart(let silence, repeated: true):
                logger.debug("hci\(index): still nothing heard after \(silence); restarting the scan again")
            case .watchdogRestart(let silence, repeated: false):
                logger.log(.bluetoothScanWatchdog, level: .notice,
                           "hci\(index): no advertising report for \(silence); restarting the scan",
                           metadata: ["bluetooth.silence": "\(silence)"])
            case .scanStoppedByAnotherProcess:
                logger.debug("hci\(index): another process turned scanning off; taking it up shortly")
            case .connectionEndedTheScanListenedTo:
                logger.debug("hci\(index): a connection was made; the scan listened to is over, taking it up shortly")
            case .forgetPendingFragments:
                ingest.forgetPendingFragments(of: index)
            }
        }
        if machine.pending == nil, let commandTimer {
            scheduler.cancel(commandTimer)
            self.commandTimer = nil
        }
    }

    private func send(_ command: ScanCommand) {
        if let commandTimer { scheduler.cancel(commandTimer) }
        commandTimer = scheduler.at(scheduler.now.advanced(by: ScanStateMachine.commandTimeout)) { [unowned self] in
            commandTimer = nil
            perform(machine.commandTimedOut(now: scheduler.now))
        }
        do {
            try socket.send(command.encodedH4())
        } catch {
            fail(error)
        }
    }

    /// The watchdog's clock: a few looks per watchdog period.
    private func scheduleTick() {
        guard let watchdog = machine.watchdog else { return }
        let period = max(Duration.seconds(1), watchdog / 3)
        tickTimer = scheduler.at(scheduler.now.advanced(by: period)) { [unowned self] in
            perform(machine.tick(now: scheduler.now))
            scheduleTick()
        }
    }

    private func cancelTimers() {
        for timer in [commandTimer, retryTimer, tickTimer].compactMap({ $0 }) { scheduler.cancel(timer) }
        commandTimer = nil
        retryTimer = nil
        tickTimer = nil
    }

    static func describe(_ reason: ScanStateMachine.RecoveryReason) -> String {
        switch reason {
        case .hardwareError(let code): "hardware error 0x\(hexString([code]))"
        case .controllerReset: "the controller was reset"
        case .commandTimedOut(let opcode): "command \(opcode) was not answered"
        case .commandFailed(let opcode, let status): "command \(opcode) failed with \(status)"
        }
    }
}
