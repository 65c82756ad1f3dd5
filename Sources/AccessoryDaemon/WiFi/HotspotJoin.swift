import AccessoryCodecs
import AccessoryCore
import AccessorySystem
import Logging

/// One join of one interface to one accessory's hotspot, from "network
/// selected" to its result, and then until `leave()`. Created by `HotspotJoiner`.
///
/// The temporary network, the DHCP client and the crash-recovery record are
/// undone on every ending: leave, failure, timeout.
public final class HotspotJoin {
    public let interface: String
    public let ssid: SSID
    public private(set) var result: HotspotJoinResult?
    public private(set) var hasLeft = false

    private let loop: EventLoop
    private let client: WPASupplicantClient
    private let record: JoinRecord
    private let recordPath: String
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

    init(
        loop: EventLoop, client: WPASupplicantClient, record: JoinRecord, recordPath: String,
        machine: HotspotJoinStateMachine, dhcp: DHCPClientProcess, logger: Logger,
        completion: @escaping (HotspotJoinResult) -> Void
    ) {
        self.loop = loop
        self.client = client
        self.record = record
        self.recordPath = recordPath
        self.machine = machine
        self.dhcp = dhcp
        self.logger = logger
        self.completion = completion
        interface = record.interface
        ssid = record.temporarySSID
    }

    /// Follows wpa_supplicant's events from here on; the deadline bounds the wait.
    func follow(timeout: Duration) throws(WPAControlError) {
        try client.attach(loop: loop, onEvent: { [weak self] message in self?.handle(message.event) },
                          onMalformed: { [logger] error in logger.debug("Ignored a malformed wpa_supplicant event: \(error)") })
        deadlineTimer = try? loop.after(timeout) { [weak self] in
            guard let self else { return }
            deadlineTimer = nil
            if let result = machine.checkDeadline() { finish(result) }
        }
    }

    /// Ends the join: releases the lease, removes the temporary network and
    /// selects the previous one. Safe to call more than once.
    public func leave() {
        guard !hasLeft else { return }
        hasLeft = true
        if let deadlineTimer { loop.cancel(deadlineTimer) }
        deadlineTimer = nil
        if let graceTimer { loop.cancel(graceTimer) }
        graceTimer = nil
        dhcp.stop()
        client.detach()
        var restored = true
        do {
            try client.perform(.removeNetwork(record.temporaryNetwork))
        } catch {
            logger.warning("Could not remove the temporary network from \(interface): \(error)")
            restored = false
        }
        for command in record.previous.restoreCommands {
            do { try client.perform(command) } catch {
                logger.warning("Could not restore \(interface)'s previous network (\(command)): \(error)")
                restored = false
            }
        }
        if restored {
            try? AgentDirectories.remove(recordPath)
            logger.info("Left the hotspot on \(interface); previous network restored",
                        metadata: ["wifi.interface": "\(interface)", "wifi.event": "hotspot-left"])
        } else {
            logger.warning("Left the hotspot on \(interface) but could not restore everything; the next start retries",
                           metadata: ["wifi.interface": "\(interface)", "wifi.event": "hotspot-restore-failed"])
        }
        onLeft?()
        onLeft = nil
    }

    private func handle(_ event: WPAEvent) {
        guard let signal = HotspotJoinSignal(event, joining: record.temporaryNetwork) else { return }
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
        if let deadlineTimer { loop.cancel(deadlineTimer) }
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
    func whenLeft(_ action: @escaping () -> Void) { onLeft = action }

    /// `action` learns why, if the link to a joined hotspot is lost: the join
    /// has ended by then and the interface is back on its previous network.
    public func whenLinkLost(_ action: @escaping (String) -> Void) { onLinkLost = action }

    private func follow(_ action: HotspotLinkWatch.Action) {
        switch action {
        case .none:
            break
        case .armGrace:
            graceTimer = try? loop.after(linkWatch.grace) { [weak self] in
                guard let self else { return }
                graceTimer = nil
                follow(linkWatch.graceExpired())
            }
        case .disarmGrace:
            if let graceTimer { loop.cancel(graceTimer) }
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
