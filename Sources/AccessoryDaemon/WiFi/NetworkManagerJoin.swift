import AccessoryCodecs
import AccessoryCore
import AccessoryPlatform
import AccessoryRadios
import Logging

/// One join through NetworkManager, for an interface it manages: from the
/// activation to the result, then until `leave()`. Created by `HotspotJoiner`.
///
/// The steps, each an asynchronous call answered on the loop: the device of
/// the interface and the connection active on it (the uplink, to restore);
/// the record (so a crash's leftovers are found at the next start); then
/// `AddAndActivateConnection2` with a volatile profile
/// (`NetworkManagerProfile`). `NetworkManagerJoinStateMachine` follows the
/// active connection's and the device's `StateChanged` to `joined` (with the
/// address NetworkManager's DHCP client got) or a typed failure; one deadline
/// on the loop's timers bounds all of it.
///
/// Every ending (leave, failure, timeout, NetworkManager restarting) runs
/// `NetworkManagerJoinCleanup`: the profile deleted, the uplink active again;
/// only then is the interface given back. The passphrase is in the profile
/// sent to NetworkManager and nowhere else: not in the record, a log or an error.
public final class NetworkManagerJoin: ActiveHotspotJoin {
    public let interface: String
    public let ssid: SSID
    public var route: HotspotJoinRoute { .networkManager }
    public private(set) var result: HotspotJoinResult?
    public private(set) var hasLeft = false

    private let loop: EventLoop
    /// Where the join's timers are armed: the loop's, or a test's manual one.
    private let scheduler: any Scheduler
    private let client: NetworkManagerClient
    private let profile: NetworkManagerProfile
    private let recordPath: String
    private let writeRecord: (NetworkManagerJoinRecord) throws(SystemError) -> Void
    private var machine: NetworkManagerJoinStateMachine
    private let logger: Logger
    private var completion: ((HotspotJoinResult) -> Void)?
    private var onLeft: (() -> Void)?
    private var onLinkLost: ((String) -> Void)?

    private var deadlineTimer: TimerToken?
    private var device: String?
    private var active: String?
    private var record: NetworkManagerJoinRecord?
    private var watches: [SignalWatch] = []
    /// Active-connection signals that came before the reply naming ours (capped).
    private var early: [(path: String, state: UInt32, reason: UInt32)] = []
    private var stepInFlight = false
    private var cleanup: NetworkManagerJoinCleanup?
    private var released = false
    /// NetworkManager left the bus during the join: the cleanup waits for it to come back.
    private var networkManagerGone = false
    private var returnTimer: TimerToken?
    private let timeout: Duration
    /// How long a leave waits for a NetworkManager that left the bus to come back and clean up.
    static let networkManagerReturnWait: Duration = .seconds(30)

    init(
        loop: EventLoop, scheduler: (any Scheduler)? = nil, client: NetworkManagerClient, interface: String, ssid: SSID, credential: WPACredential,
        recordPath: String, writeRecord: @escaping (NetworkManagerJoinRecord) throws(SystemError) -> Void,
        timeout: Duration, machine: NetworkManagerJoinStateMachine, logger: Logger, completion: @escaping (HotspotJoinResult) -> Void
    ) {
        self.loop = loop
        self.scheduler = scheduler ?? loop
        self.client = client
        self.interface = interface
        self.ssid = ssid
        self.profile = NetworkManagerProfile(
            uuid: NetworkManagerJoinRecord.newUUID(), interface: interface, ssid: ssid, credential: credential)
        self.recordPath = recordPath
        self.writeRecord = writeRecord
        self.machine = machine
        self.timeout = timeout
        self.logger = logger
        self.completion = completion
    }

    public func whenLeft(_ action: @escaping () -> Void) { onLeft = action }
    public func whenLinkLost(_ action: @escaping (String) -> Void) { onLinkLost = action }

    // MARK: The start

    func start() {
        deadlineTimer = scheduler.at(scheduler.now.advanced(by: timeout)) { [weak self] in
            guard let self else { return }
            deadlineTimer = nil
            if let result = machine.checkDeadline() { finish(result) }
        }
        do {
            try watchNetworkManager()
        } catch {
            return failed("cannot follow NetworkManager's signals: \(error)")
        }
        step({ done in self.client.device(of: self.interface, completion: done) }) { [self] device in
            self.device = device
            do {
                try watchDevice(device)
            } catch {
                return failed("cannot follow NetworkManager's signals: \(error)")
            }
            step({ done in self.client.objectPathProperty(device, NetworkManagerClient.deviceInterface, "ActiveConnection", completion: done) }) {
                [self] uplink in
                guard uplink != "/" else { return addAndActivate(device: device, uplinkUUID: "") }
                // An uplink that cannot be read is no reason to fail the join: it is then not restored.
                step({ done in
                    self.client.activeConnection(uplink) { done(.success((try? $0.get())?.uuid ?? "")) }
                }) { [self] uuid in
                    addAndActivate(device: device, uplinkUUID: uuid)
                }
            }
        }
    }

    private func addAndActivate(device: String, uplinkUUID: String) {
        let record = NetworkManagerJoinRecord(interface: interface, profileUUID: profile.uuid, uplinkUUID: uplinkUUID)
        do { try writeRecord(record) } catch { return failed("cannot write the join record: \(error)") }
        self.record = record
        logger.info("Joining hotspot \(ssid) on \(interface) through NetworkManager",
                    metadata: ["wifi.interface": "\(interface)", "wifi.ssid": "\(hexString(ssid.bytes))",
                               "wifi.event": "hotspot-join-started", "wifi.nm_profile": "\(profile.uuid)"])
        step({ done in self.client.addAndActivate(self.profile, device: device, timeout: self.timeout, completion: done) }) { [self] paths in
            active = paths.active
            // What came before the reply, then the state now (a change may have gone before the match was there).
            for event in early where event.path == paths.active { handleActive(state: event.state, reason: event.reason) }
            early.removeAll()
            client.property(paths.active, NetworkManagerClient.activeInterface, "State", contents: "u",
                            read: { reply throws(BusError) in try reply.readUInt32() }) { [weak self] state in
                guard let self, case .success(let state) = state, active == paths.active else { return }
                handleActive(state: state, reason: 0)
            }
        }
    }

    /// Sends one request of the start sequence; `next` runs with its answer
    /// unless the join ended or was left meanwhile.
    private func step<T>(
        _ send: (@escaping (Result<T, NetworkManagerError>) -> Void) -> Void, _ next: @escaping (T) -> Void
    ) {
        stepInFlight = true
        send { [weak self] outcome in
            guard let self else { return }
            stepInFlight = false
            if hasLeft { return undoWhenReady() }
            guard result == nil else { return }
            switch outcome {
            case .success(let value): next(value)
            case .failure(let error):
                if case .notRunning = error { networkManagerGone = true }
                failed("\(error)")
            }
        }
    }

    private func failed(_ reason: String) {
        if case .finish(let result) = machine.failed(reason) { finish(result) }
    }

    // MARK: Signals

    private func watchNetworkManager() throws(SystemError) {
        watches.append(try client.connection.watchSignal(
            sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "NameOwnerChanged") { [weak self] message in
                guard let self, let name = try? message.readString(), name == NetworkManagerClient.busName,
                    let old = try? message.readString(), let new = try? message.readString()
                else { return }
                if !old.isEmpty { networkManagerLeft() }
                if !new.isEmpty { networkManagerCameBack() }
            })
        watches.append(try client.connection.watchSignal(
            sender: NetworkManagerClient.busName, interface: NetworkManagerClient.activeInterface, member: "StateChanged") {
                [weak self] message in
                guard let self, let path = message.path, let state = try? message.readUInt32(),
                    let reason = try? message.readUInt32()
                else { return }
                if let active {
                    if path == active { handleActive(state: state, reason: reason) }
                } else if early.count < 32 {
                    early.append((path, state, reason))
                }
            })
    }

    private func watchDevice(_ device: String) throws(SystemError) {
        watches.append(try client.connection.watchSignal(
            sender: NetworkManagerClient.busName, path: device, interface: NetworkManagerClient.deviceInterface,
            member: "StateChanged") { [weak self] message in
                guard let self, result == nil, let new = try? message.readUInt32(), (try? message.readUInt32()) != nil,
                    let reason = try? message.readUInt32()
                else { return }
                logger.debug("Hotspot join on \(interface): NetworkManager device state \(new) reason \(reason)")
                if case .finish(let result) = machine.deviceStateChanged(new: new, reason: reason) { finish(result) }
            })
    }

    private func handleActive(state: UInt32, reason: UInt32) {
        logger.debug("Hotspot join on \(interface): NetworkManager active connection state \(state) reason \(reason)")
        if case .joined? = result {
            // Once joined, the connection going down is the link lost (the hotspot gone, NetworkManager's doing).
            if state >= NetworkManagerJoinStateMachine.ActiveState.deactivating.rawValue {
                linkLost("NetworkManager deactivated the hotspot connection (\(NetworkManagerJoinStateMachine.failure(activeReason: reason)))")
            }
            return
        }
        switch machine.activeStateChanged(state, reason: reason) {
        case .none: break
        case .finish(let result): finish(result)
        case .readAddress:
            guard let active else { return }
            client.ipv4Address(of: active) { [weak self] address in
                guard let self else { return }
                switch address {
                case .success(let address):
                    if case .finish(let result) = machine.addressRead(address) { finish(result) }
                case .failure(let error): failed("cannot read the hotspot address: \(error)")
                }
            }
        }
    }

    private func networkManagerLeft() {
        guard !networkManagerGone else { return }
        networkManagerGone = true
        client.cancelAll()
        stepInFlight = false
        logger.warning("NetworkManager left the bus during the hotspot join on \(interface)",
                       metadata: ["wifi.interface": "\(interface)", "wifi.event": "hotspot-networkmanager-gone"])
        if result == nil {
            failed("NetworkManager stopped during the join")
        } else if case .joined? = result {
            linkLost("NetworkManager stopped")
        } else if hasLeft {
            cleanup?.cancel()
            cleanup = nil
            undoWhenReady()
        }
    }

    private func networkManagerCameBack() {
        guard networkManagerGone else { return }
        networkManagerGone = false
        if let returnTimer { scheduler.cancel(returnTimer) }
        returnTimer = nil
        if hasLeft { undoWhenReady() }
    }

    private func linkLost(_ reason: String) {
        logger.warning("Lost the link to the hotspot on \(interface): \(reason); leaving it",
                       metadata: ["wifi.interface": "\(interface)", "wifi.event": "hotspot-link-lost",
                                  "wifi.leave_reason": "\(reason)"])
        let tell = onLinkLost
        onLinkLost = nil
        leave()
        tell?(reason)
    }

    // MARK: The end

    public func leave() {
        guard !hasLeft else { return }
        hasLeft = true
        stopFollowing()
        undoWhenReady()
    }

    private func stopFollowing() {
        if let deadlineTimer { scheduler.cancel(deadlineTimer) }
        deadlineTimer = nil
        // The name-owner watch stays: the cleanup waits for a NetworkManager that restarts.
        watches = Array(watches.prefix(1))
    }

    private func undoWhenReady() {
        guard !stepInFlight, !released, cleanup == nil else { return }
        guard let record else { return release() }
        if networkManagerGone {
            // Its profile and state are NetworkManager's to restore when it comes back; wait for it, bounded.
            guard returnTimer == nil else { return }
            returnTimer = scheduler.at(scheduler.now.advanced(by: Self.networkManagerReturnWait)) { [weak self] in
                guard let self else { return }
                returnTimer = nil
                logger.warning("NetworkManager did not come back; the next start removes the hotspot profile from \(interface)",
                               metadata: ["wifi.interface": "\(interface)", "wifi.event": "hotspot-restore-failed"])
                release()
            }
            return
        }
        let cleanup = NetworkManagerJoinCleanup(client: client, record: record, scheduler: scheduler)
        self.cleanup = cleanup
        cleanup.run { [weak self] outcome in
            guard let self else { return }
            self.cleanup = nil
            restored(outcome)
        }
    }

    public func leaveBlocking() {
        guard !released else { return }
        hasLeft = true
        stopFollowing()
        cleanup?.cancel()
        cleanup = nil
        client.cancelAll()
        guard let record else { return release() }
        client.blocking = true
        defer { client.blocking = false }
        NetworkManagerJoinCleanup(client: client, record: record, scheduler: nil).run { [weak self] in self?.restored($0) }
    }

    private func restored(_ outcome: NetworkManagerJoinCleanup.Outcome) {
        switch outcome {
        case .restored, .noUplink:
            try? DaemonDirectories.remove(recordPath)
            let uplink = outcome == .restored ? "uplink active again" : "no uplink to restore"
            logger.info("Left the hotspot on \(interface); NetworkManager's profile removed, \(uplink)",
                        metadata: ["wifi.interface": "\(interface)", "wifi.event": "hotspot-left"])
        case .uplinkNotBack(let reason):
            try? DaemonDirectories.remove(recordPath)
            logger.warning("Left the hotspot on \(interface); NetworkManager's profile removed, but the uplink is not active (\(reason)); NetworkManager's autoconnect brings it back",
                           metadata: ["wifi.interface": "\(interface)", "wifi.event": "hotspot-uplink-not-back"])
        case .failed(let reason):
            logger.warning("Left the hotspot on \(interface) but could not remove NetworkManager's profile (\(reason)); the next start retries",
                           metadata: ["wifi.interface": "\(interface)", "wifi.event": "hotspot-restore-failed"])
        }
        release()
    }

    private func release() {
        guard !released else { return }
        released = true
        if let returnTimer { scheduler.cancel(returnTimer) }
        returnTimer = nil
        watches.removeAll()
        onLeft?()
        onLeft = nil
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
