import AccessoryCodecs
import AccessoryCore
import AccessoryDecisions
import AccessoryPlatform
import AccessoryRadios
import Glibc  // errno constants only
import Logging

/// One join of one interface to one accessory's hotspot, from its start to its
/// result, and then until `leave()`. Created and started by `HotspotJoiner`.
///
/// Everything it asks wpa_supplicant goes through the client's queue on the
/// event loop: the join is a sequence of replies arriving, never a wait. The
/// steps: LIST_NETWORKS (the snapshot to restore), ADD_NETWORK, the
/// crash-recovery record, SET_NETWORK ssid/credential/scan_ssid, ATTACH,
/// SELECT_NETWORK; then `HotspotJoinStateMachine` follows the events. One
/// deadline, armed at the start on the loop's timers, bounds all of it: a
/// wpa_supplicant that stops answering ends the join with a typed result
/// (`failed` naming the unanswered command, or `timedOut`).
///
/// The temporary network, the DHCP client and the crash-recovery record are
/// undone on every ending: leave, failure, timeout. `leave()` sends the undo
/// on the loop too; the interface is given back (`whenLeft`) once wpa_supplicant
/// has answered it. `leaveBlocking()` is for when the loop has stopped.
public final class HotspotJoin: ActiveHotspotJoin {
    public let interface: String
    public var route: HotspotJoinRoute { .wpaSupplicant }
    public let ssid: SSID
    public private(set) var result: HotspotJoinResult?
    public var hasLeft: Bool { teardown.hasLeft }

    private let loop: EventLoop
    /// Where the join's timers are armed: the loop's, or a test's manual one.
    private let scheduler: any Scheduler
    private let client: WPASupplicantClient
    private let credential: WPACredential
    private let controlDirectory: String
    private let recordPath: String
    private let writeRecord: (JoinRecord) throws(SystemError) -> Void
    private var machine: HotspotJoinStateMachine
    private let dhcp: DHCPClientProcess
    private var deadlineTimer: TimerToken?
    private var completion: ((HotspotJoinResult) -> Void)?
    private let logger: Logger
    fileprivate var onLeft: (() -> Void)?
    /// Once joined: whether the link is still there.
    private var linkWatch = HotspotLinkWatch()
    private var graceTimer: TimerToken?
    private var onLinkLost: ((String) -> Void)?

    /// What the steps so far established; the undo works from it.
    private var previous: NetworkSnapshot?
    private var network: WPANetworkID?
    /// How the join is taken apart: what is waited for, how far the undo got.
    private var teardown = HotspotJoinTeardown()
    private var livenessTimer: TimerToken?

    init(
        loop: EventLoop, scheduler: (any Scheduler)? = nil, client: WPASupplicantClient, ssid: SSID, credential: WPACredential,
        controlDirectory: String, recordPath: String,
        writeRecord: @escaping (JoinRecord) throws(SystemError) -> Void,
        machine: HotspotJoinStateMachine, dhcp: DHCPClientProcess, logger: Logger,
        completion: @escaping (HotspotJoinResult) -> Void
    ) {
        self.loop = loop
        self.scheduler = scheduler ?? loop
        self.client = client
        self.ssid = ssid
        self.credential = credential
        self.controlDirectory = controlDirectory
        self.recordPath = recordPath
        self.writeRecord = writeRecord
        self.machine = machine
        self.dhcp = dhcp
        self.logger = logger
        self.completion = completion
        interface = machine.interface
    }

    /// The record of what this join changed, once it changed something.
    var record: JoinRecord? {
        guard let previous, let network else { return nil }
        return JoinRecord(interface: interface, controlDirectory: controlDirectory, temporaryNetwork: network,
                          temporarySSID: ssid, previous: previous, dhcpPIDFile: dhcp.pidFile)
    }

    /// What takes the join's changes back, once it changed something.
    private var undoCommands: [WPACommand]? {
        record.map { [WPACommand.removeNetwork($0.temporaryNetwork)] + $0.previous.restoreCommands }
    }

    // MARK: The start, one reply at a time

    /// Arms the deadline and sends the first request. Results come through the completion.
    func start() {
        deadlineTimer = scheduler.at(scheduler.now.advanced(by: machine.policy.timeout)) { [weak self] in
            guard let self else { return }
            deadlineTimer = nil
            if let result = machine.checkDeadline() { finish(result) }
        }
        armLivenessCheck()
        step({ done in self.client.networks(completion: done) }) { [self] networks in
            previous = NetworkSnapshot(networks)
            step({ done in self.client.addNetwork(completion: done) }) { [self] id in
                network = id
                guard let record else { return }
                do { try writeRecord(record) } catch {
                    fail("cannot write the join record: \(error)")
                    return
                }
                let settings: [WPANetworkSetting] = [.ssid(ssid)] + credential.networkSettings + [.scanSSID(true)]
                configure(id, settings[...])
            }
        }
    }

    private func configure(_ id: WPANetworkID, _ settings: ArraySlice<WPANetworkSetting>) {
        guard let setting = settings.first else {
            attachAndSelect(id)
            return
        }
        step({ done in self.client.perform(.setNetwork(id, setting), completion: done) }) { [self] in
            configure(id, settings.dropFirst())
        }
    }

    private func attachAndSelect(_ id: WPANetworkID) {
        step({ done in
            do throws(WPAControlError) {
                try self.client.attach(
                    onEvent: { [weak self] message in self?.handle(message.event) },
                    onMalformed: { [logger] error in logger.debug("Ignored a malformed wpa_supplicant event: \(error)") },
                    completion: done)
            } catch {
                done(.failure(error))
            }
        }) { [self] in
            logger.info("Joining hotspot \(ssid) on \(interface)",
                        metadata: ["wifi.interface": "\(interface)", "wifi.ssid": "\(hexString(ssid.bytes))",
                                   "wifi.event": "hotspot-join-started", "wifi.security": "\(credential)"])
            step({ done in self.client.perform(.selectNetwork(id), completion: done) }) {}
        }
    }

    /// Sends one request of the start sequence; `next` runs with its answer
    /// unless the join ended or was left meanwhile. A refusal or no answer ends the join.
    private func step<T>(
        _ send: (@escaping (Result<T, WPAControlError>) -> Void) -> Void, _ next: @escaping (T) -> Void
    ) {
        perform(teardown.handle(.stepSent, undo: undoCommands))
        send { [weak self] outcome in
            guard let self else { return }
            // A network added after a leave was asked for is known now, and undone.
            if case .success(let value) = outcome, let id = value as? WPANetworkID { network = network ?? id }
            let actions = teardown.handle(.stepAnswered, undo: undoCommands)
            if hasLeft {
                perform(actions)
                return
            }
            guard result == nil else { return }
            switch outcome {
            case .success(let value): next(value)
            case .failure(let error):
                if Self.meansGone(error) { perform(teardown.handle(.supplicantGone, undo: undoCommands)) }
                fail("\(error)")
            }
        }
    }

    private func fail(_ reason: String) {
        guard result == nil else { return }
        if let ended = machine.handle(.failed(reason: reason)) { finish(ended) }
    }

    // MARK: wpa_supplicant going away

    /// How often a join asks wpa_supplicant whether it is still there. Its
    /// sockets are connected to the control socket of the instance the join
    /// started with: a PING fails with ECONNREFUSED once that instance is gone,
    /// even if another has taken its path since.
    static let livenessInterval: Duration = .seconds(5)

    private func armLivenessCheck() {
        livenessTimer = scheduler.at(scheduler.now.advanced(by: Self.livenessInterval)) { [weak self] in
            guard let self else { return }
            livenessTimer = nil
            guard !hasLeft else { return }
            client.request(.ping) { [weak self] outcome in
                guard let self, !hasLeft else { return }
                if case .failure(let error) = outcome, Self.meansGone(error) {
                    perform(teardown.handle(.supplicantGone, undo: undoCommands))
                    logger.warning("wpa_supplicant on \(interface) went away: \(error)",
                                   metadata: ["wifi.interface": "\(interface)", "wifi.event": "hotspot-supplicant-gone"])
                    if result == nil {
                        fail("wpa_supplicant went away")
                    } else {
                        follow(.lost(reason: "wpa_supplicant went away"))
                    }
                    return
                }
                armLivenessCheck()
            }
        }
    }

    /// Whether `error` says wpa_supplicant's control socket is no longer there
    /// (killed, stopped, or replaced by a new instance), rather than slow or refusing.
    static func meansGone(_ error: WPAControlError) -> Bool {
        guard case .system(let system) = error else { return false }
        return [ECONNREFUSED, ENOENT, ECONNRESET, ENOTCONN].contains(system.errno)
    }

    // MARK: The end

    /// Ends the join: releases the lease, removes the temporary network and
    /// selects the previous one, on the loop. Safe to call more than once.
    public func leave() {
        perform(teardown.handle(.leave, undo: undoCommands))
    }

    /// `leave()` for when the event loop is stopping or stopped (the daemon
    /// exiting): the undo is sent and waited for here, each request bounded by
    /// the client's timeout. What a `leave()` on the loop still had queued is
    /// withdrawn and done here instead.
    public func leaveBlocking() {
        guard !teardown.isReleased else { return }
        // Nothing is sent on the loop from here: the undo is done below.
        stopFollowing()
        dhcp.stop()
        client.cancelRequests()
        var restored: Bool?
        if let undo = teardown.takeOver(undo: undoCommands) {
            restored = undo.restored
            for command in undo.commands {
                do { try client.perform(command) } catch {
                    undoFailed(command, error)
                    restored = false
                }
            }
        }
        perform(teardown.finishBlocking(restored: restored))
    }

    private func stopFollowing() {
        if let deadlineTimer { scheduler.cancel(deadlineTimer) }
        deadlineTimer = nil
        if let livenessTimer { scheduler.cancel(livenessTimer) }
        livenessTimer = nil
        if let graceTimer { scheduler.cancel(graceTimer) }
        graceTimer = nil
        client.detach()
    }

    /// Carries out what the teardown decided, on the loop.
    private func perform(_ actions: [HotspotJoinTeardown.Action]) {
        for action in actions {
            switch action {
            case .stopFollowing:
                // Stopping the events ends an ATTACH under way at once.
                stopFollowing()
                dhcp.stop(on: loop, scheduler: scheduler) { [weak self] in
                    guard let self else { return }
                    perform(teardown.handle(.dhcpStopped, undo: undoCommands))
                }
            case .send(let command):
                client.perform(command) { [weak self] outcome in
                    guard let self, !teardown.isReleased else { return }
                    if case .failure(.cancelled) = outcome { return }  // leaveBlocking took over
                    var failed = false
                    if case .failure(let error) = outcome {
                        undoFailed(command, error)
                        failed = true
                    }
                    perform(teardown.handle(.undoAnswered(failed: failed), undo: undoCommands))
                }
            case .abandon:
                guard let record else { continue }
                // The temporary network went with it (it was never saved), and the
                // network ids of the one that replaces it are not ours to change:
                // its own configuration brings the uplink back.
                try? DaemonDirectories.remove(recordPath)
                logger.warning("wpa_supplicant on \(interface) went away during the hotspot join; nothing of the join is left to undo",
                               metadata: ["wifi.interface": "\(interface)", "wifi.event": "hotspot-supplicant-gone",
                                          "wifi.temporary_network": "\(record.temporaryNetwork)"])
            case .finish(let restored):
                restoredOrNot(restored)
            case .release:
                // The interface is free for the next join (and for scans).
                onLeft?()
                onLeft = nil
            }
        }
    }

    private func undoFailed(_ command: WPACommand, _ error: WPAControlError) {
        if case .removeNetwork = command {
            logger.warning("Could not remove the temporary network from \(interface): \(error)")
        } else {
            logger.warning("Could not restore \(interface)'s previous network (\(command)): \(error)")
        }
    }

    private func restoredOrNot(_ restored: Bool) {
        if restored {
            try? DaemonDirectories.remove(recordPath)
            logger.info("Left the hotspot on \(interface); previous network restored",
                        metadata: ["wifi.interface": "\(interface)", "wifi.event": "hotspot-left"])
        } else {
            logger.warning("Left the hotspot on \(interface) but could not restore everything; the next start retries",
                           metadata: ["wifi.interface": "\(interface)", "wifi.event": "hotspot-restore-failed"])
        }
    }

    private func handle(_ event: WPAEvent) {
        guard let network, let signal = HotspotJoinSignal(event, joining: network) else { return }
        logger.debug("Hotspot join on \(interface): \(signal)")
        if case .joined? = result {
            follow(linkWatch.handle(signal))
            return
        }
        guard result == nil else { return }
        let wasAssociating = machine.phase == .associating
        if let result = machine.handle(signal) {
            finish(result)
        } else if wasAssociating, machine.phase == .obtainingAddress, dhcp.pid == 0 {
            startDHCP()
        }
    }

    private func startDHCP() {
        do {
            try dhcp.start(
                loop: loop,
                onLease: { [weak self] address in
                    guard let self, result == nil, let ended = machine.handle(.addressObtained(address)) else { return }
                    finish(ended)
                },
                onExit: { [weak self] status in
                    guard let self, result == nil else { return }
                    if let ended = machine.handle(.failed(reason: "the DHCP client exited (status \(status)) without a lease")) {
                        finish(ended)
                    }
                })
        } catch {
            if let ended = machine.handle(.failed(reason: "cannot start the DHCP client: \(error)")) { finish(ended) }
        }
    }

    private func finish(_ result: HotspotJoinResult) {
        self.result = result
        if let deadlineTimer { scheduler.cancel(deadlineTimer) }
        deadlineTimer = nil
        logger.info("Hotspot join on \(interface): \(result)",
                    metadata: ["wifi.interface": "\(interface)", "wifi.ssid": "\(hexString(ssid.bytes))",
                               "wifi.event": "hotspot-join-result", "wifi.join_result": "\(result)"])
        if case .joined = result {} else { leave() }
        let completion = self.completion
        self.completion = nil
        completion?(result)
    }
}

extension HotspotJoin {
    public func whenLeft(_ action: @escaping () -> Void) { onLeft = action }

    /// `action` learns why, if the link to a joined hotspot is lost: the join
    /// has ended by then and the interface is back on its previous network.
    public func whenLinkLost(_ action: @escaping (String) -> Void) { onLinkLost = action }

    private func follow(_ action: HotspotLinkWatch.Action) {
        switch action {
        case .none:
            break
        case .armGrace:
            graceTimer = scheduler.at(scheduler.now.advanced(by: linkWatch.grace)) { [weak self] in
                guard let self else { return }
                graceTimer = nil
                follow(linkWatch.graceExpired())
            }
        case .disarmGrace:
            if let graceTimer { scheduler.cancel(graceTimer) }
            graceTimer = nil
        case .lost(let reason):
            logger.warning("Lost the link to the hotspot on \(interface): \(reason); leaving it",
                           metadata: ["wifi.interface": "\(interface)", "wifi.event": "hotspot-link-lost",
                                      "wifi.leave_reason": "\(reason)"])
            let tell = onLinkLost
            onLinkLost = nil
            leave()
            tell?(reason)
        }
    }
}
