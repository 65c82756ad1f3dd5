import AccessoryCore
import AccessoryPlatform
import AccessoryRadios
import Logging

/// Opens L2CAP LE channels to authorized accessories for their apps and keeps
/// the daemon's copy of every socket it hands out, so that revoking an
/// accessory can cut its channels: `shutdown(SHUT_RDWR)` on the daemon's copy
/// disconnects the channel for every duplicate, the app's included.
///
/// Per controller it allows links to at most `connectionLimit` distinct peers
/// (channels to a peer already linked share that link). HCI has no command
/// that reports how many LE connections a controller can hold (LE Read Buffer
/// Size counts packets, LE Supported States lists role combinations), so the
/// limit is a setting, `defaultConnectionLimit` unless given; a controller
/// that runs out first answers with Connection Limit Exceeded, which arrives
/// as `L2CAPConnectionError.connectionLimitExceeded`.
///
/// Runs on the daemon's event loop; not thread-safe.
public final class ChannelBroker {
    public typealias Completion = (Result<BrokeredChannel, ChannelError>) -> Void

    /// Small controllers (and btvirt's) manage a handful of LE links; four is
    /// what the agent asks of any of them.
    public static let defaultConnectionLimit = 4
    public static let defaultConnectTimeout: Duration = .seconds(10)

    private let loop: EventLoop
    /// Where the connects' deadlines are armed: the loop's, or a test's manual one.
    private let scheduler: any Scheduler
    private let controllers: () -> [BluetoothControllerInfo]
    private let connectionLimit: Int
    private let connectTimeout: Duration
    private let logger: Logger

    /// Called on the loop when a channel ends by itself (the peer left, the
    /// link dropped); not for `close` or `revoke`.
    public var onChannelEnded: ((BrokeredChannel) -> Void)?
    /// The security a channel to the accessory must have before it is
    /// handed over (a bond of accessoryd's: medium, high when authenticated); nil asks for none.
    public var requiredSecurity: (AccessoryID) -> L2CAPSecurity.Level? = { _ in nil }

    private struct Attempt {
        let accessory: AccessoryID
        let peer: BluetoothDeviceIdentifier
        let kind: L2CAPChannelKind
        let controller: BluetoothControllerInfo
        let completion: Completion
        var connector: L2CAPConnector?
    }

    private struct OpenChannel {
        let channel: BrokeredChannel
        let controllerIndex: UInt16
        var hangUp: SocketEventSource?
    }

    private var nextID: UInt64 = 1
    private var attempts: [UInt64: Attempt] = [:]
    private var channels: [UInt64: OpenChannel] = [:]

    /// `controllers` lists the controllers the broker may use (the daemon's
    /// own, without those held exclusively through the HCI user channel); it
    /// is asked on every `open`, so hotplug needs nothing more.
    public init(
        loop: EventLoop, scheduler: (any Scheduler)? = nil, controllers: @escaping () -> [BluetoothControllerInfo],
        connectionLimit: Int = ChannelBroker.defaultConnectionLimit,
        connectTimeout: Duration = ChannelBroker.defaultConnectTimeout, logger: Logger
    ) {
        self.loop = loop
        self.scheduler = scheduler ?? loop
        self.controllers = controllers
        self.connectionLimit = max(1, connectionLimit)
        self.connectTimeout = connectTimeout
        self.logger = logger
    }

    deinit { revokeAll() }

    /// Where an accessory is reached now, given the address its grant holds:
    /// a bonded accessory's private address of the moment (the daemon's
    /// discovery knows it), anything else itself.
    public var currentAddress: (BluetoothDeviceIdentifier) -> BluetoothDeviceIdentifier = { $0 }

    /// Connects to `peer` for `accessory`, on the ATT fixed channel or the
    /// PSM given, from `controller` (a name like `hci0`) or else the best
    /// one: one already linked to the peer, else the first LE controller
    /// that is up and has room. `completion` runs once, on the loop, never
    /// before `open` returns.
    public func open(
        accessory: AccessoryID, peer identity: BluetoothDeviceIdentifier, kind: L2CAPChannelKind = .attribute,
        controller name: String? = nil, completion: @escaping Completion
    ) {
        let peer = currentAddress(identity)
        let id = nextID
        nextID += 1
        let choice = kind == .attribute && attributeChannelExists(to: peer)
            ? .failure(.attributeChannelInUse(peer)) : chooseController(named: name, for: peer)
        switch choice {
        case .failure(let error):
            logger.notice("No channel for the accessory", metadata: metadata(accessory, peer, kind, error: error))
            // Keep the promise of never completing inside `open`.
            scheduler.at(scheduler.now) { completion(.failure(error)) }
        case .success(let controller):
            logger.debug("Connecting", metadata: metadata(accessory, peer, kind, controller: controller.name))
            attempts[id] = Attempt(accessory: accessory, peer: peer, kind: kind, controller: controller, completion: completion)
            attempts[id]?.connector = L2CAPConnector.connect(
                loop: loop, scheduler: scheduler, from: controller.address, to: peer, kind: kind,
                security: requiredSecurity(accessory), timeout: connectTimeout
            ) { [weak self] result in
                self?.attemptEnded(id: id, result: result)
            }
        }
    }

    /// The channels open for `accessory` now.
    public func channels(of accessory: AccessoryID) -> [BrokeredChannel] {
        channels.values.map(\.channel).filter { $0.accessory == accessory }.sorted { $0.id < $1.id }
    }

    /// Ends one channel: shuts the socket down (the app's duplicate too) and closes the daemon's copy.
    public func close(channel id: UInt64) {
        guard let entry = channels.removeValue(forKey: id) else { return }
        end(entry, reason: "closed")
    }

    /// Ends every channel of `accessory` and abandons its connection attempts
    /// (their completions get `.revoked`). For a revoked grant or a removed accessory.
    public func revoke(accessory: AccessoryID) {
        for (id, attempt) in attempts where attempt.accessory == accessory {
            attempts.removeValue(forKey: id)
            attempt.connector?.cancel()
            attempt.completion(.failure(.revoked))
        }
        for (id, entry) in channels where entry.channel.accessory == accessory {
            channels.removeValue(forKey: id)
            end(entry, reason: "revoked")
        }
    }

    /// Ends everything, for the daemon's exit.
    public func revokeAll() {
        let accessories = Set(attempts.values.map(\.accessory)).union(channels.values.map(\.channel.accessory))
        for accessory in accessories { revoke(accessory: accessory) }
    }

    // MARK: - Private

    private func attemptEnded(id: UInt64, result: Result<Int32, L2CAPConnectionError>) {
        guard let attempt = attempts.removeValue(forKey: id) else {
            // Revoked meanwhile; a socket that connected anyway is not wanted.
            if case .success(let fd) = result { L2CAPSocket.close(fd) }
            return
        }
        switch result {
        case .failure(let reason):
            let error = ChannelError.connectionFailed(reason)
            logger.notice("Channel to the accessory failed", metadata: metadata(
                attempt.accessory, attempt.peer, attempt.kind, controller: attempt.controller.name, error: error))
            attempt.completion(.failure(error))
        case .success(let fd):
            let channel = BrokeredChannel(
                id: id, accessory: attempt.accessory, peer: attempt.peer, kind: attempt.kind,
                controller: attempt.controller.name, fd: fd)
            var entry = OpenChannel(channel: channel, controllerIndex: attempt.controller.index, hangUp: nil)
            entry.hangUp = try? SocketEventSource(loop: loop, fd: fd, events: SocketEventSource.hangUp) { [weak self] _ in
                self?.channelEnded(id: id)
            }
            channels[id] = entry
            logger.info("Channel to the accessory open", metadata: metadata(
                attempt.accessory, attempt.peer, attempt.kind, controller: attempt.controller.name)
                .merging(["bluetooth.channel": "\(id)"]) { $1 })
            attempt.completion(.success(channel))
        }
    }

    /// The socket hung up by itself: the peer disconnected or the link dropped.
    private func channelEnded(id: UInt64) {
        guard let entry = channels.removeValue(forKey: id) else { return }
        end(entry, reason: "ended")
        onChannelEnded?(entry.channel)
    }

    private func end(_ entry: OpenChannel, reason: String) {
        entry.hangUp?.cancel()
        L2CAPSocket.disconnect(entry.channel.fd)
        logger.info("Channel to the accessory \(reason)", metadata: metadata(
            entry.channel.accessory, entry.channel.peer, entry.channel.kind, controller: entry.channel.controller)
            .merging(["bluetooth.channel": "\(entry.channel.id)"]) { $1 })
    }

    /// The controller to connect from, or why there is none.
    private func chooseController(
        named name: String?, for peer: BluetoothDeviceIdentifier
    ) -> Result<BluetoothControllerInfo, ChannelError> {
        let usable = controllers().filter { $0.isUp && $0.supportsLowEnergy }
        let candidates: [BluetoothControllerInfo]
        if let name {
            guard let named = usable.first(where: { $0.name == name }) else { return .failure(.noSuchController(name)) }
            candidates = [named]
        } else {
            guard !usable.isEmpty else { return .failure(.noController) }
            // A controller already linked to the peer needs no new link.
            candidates = usable.filter { linkedPeers(on: $0.index).contains(peer) }
                + usable.filter { !linkedPeers(on: $0.index).contains(peer) }
        }
        for candidate in candidates {
            let peers = linkedPeers(on: candidate.index)
            if peers.contains(peer) || peers.count < connectionLimit { return .success(candidate) }
        }
        return .failure(.connectionLimitReached(controller: candidates[0].name, limit: connectionLimit))
    }

    /// The kernel allows one ATT channel per link; a second connect would fail with EBUSY.
    private func attributeChannelExists(to peer: BluetoothDeviceIdentifier) -> Bool {
        attempts.values.contains { $0.peer == peer && $0.kind == .attribute }
            || channels.values.contains { $0.channel.peer == peer && $0.channel.kind == .attribute }
    }

    /// Peers with a channel open or being opened through this controller.
    private func linkedPeers(on index: UInt16) -> Set<BluetoothDeviceIdentifier> {
        Set(attempts.values.filter { $0.controller.index == index }.map(\.peer))
            .union(channels.values.filter { $0.controllerIndex == index }.map(\.channel.peer))
    }

    private func metadata(
        _ accessory: AccessoryID, _ peer: BluetoothDeviceIdentifier, _ kind: L2CAPChannelKind,
        controller: String? = nil, error: ChannelError? = nil
    ) -> Logger.Metadata {
        var result: Logger.Metadata = [
            "accessory": "\(accessory)", "bluetooth.device": "\(peer)", "bluetooth.channel_kind": "\(kind)",
        ]
        if let controller { result["bluetooth.controller"] = "\(controller)" }
        if let error { result["error"] = "\(error)" }
        return result
    }
}
