import AccessoryCore
import AccessoryPlatform
import AccessoryRadios
import Glibc  // signal numbers and pid_t only
import Logging

/// `accessoryd --connect`: opens channels through the broker as the daemon
/// would for an app, prints one line per channel, and hands the connected
/// sockets to a command as fd 3, 4, … (like systemd-socket-activate). SIGUSR1
/// revokes them (shutdown of the daemon's copies) while the command runs.
/// For operators checking a peer, and for the lab.
public struct ChannelDiagnostic {
    public var peers: [BluetoothDeviceIdentifier]
    public var controller: String?
    public var kind: L2CAPChannelKind
    public var connectionLimit: Int
    public var connectTimeout: Duration
    /// Run with the sockets; empty: exit once every channel is open or failed.
    public var command: [String]

    public init(
        peers: [BluetoothDeviceIdentifier], controller: String?, kind: L2CAPChannelKind,
        connectionLimit: Int = ChannelBroker.defaultConnectionLimit,
        connectTimeout: Duration = ChannelBroker.defaultConnectTimeout, command: [String]
    ) {
        self.peers = peers
        self.controller = controller
        self.kind = kind
        self.connectionLimit = connectionLimit
        self.connectTimeout = connectTimeout
        self.command = command
    }

    /// The exit status: the command's, or 0 when every channel opened (1 if one did not).
    public func run() -> Int32 {
        let loop: EventLoop
        do { loop = try EventLoop() } catch {
            StandardError.write("accessoryd: \(error)\n")
            return 1
        }
        let session = DiagnosticSession(loop: loop, diagnostic: self)
        return session.run()
    }
}

/// The diagnostic's state on the loop: connections in order, then the command.
private final class DiagnosticSession {
    let loop: EventLoop
    let diagnostic: ChannelDiagnostic
    let broker: ChannelBroker
    var opened: [BrokeredChannel] = []
    var failed = false
    var child: pid_t = 0

    init(loop: EventLoop, diagnostic: ChannelDiagnostic) {
        self.loop = loop
        self.diagnostic = diagnostic
        broker = ChannelBroker(
            loop: loop, controllers: { (try? BluetoothControllerInfo.all()) ?? [] },
            connectionLimit: diagnostic.connectionLimit, connectTimeout: diagnostic.connectTimeout,
            logger: Logger(label: "accessoryd.channel"))
    }

    func run() -> Int32 {
        do {
            try loop.onSignal(SIGUSR1) { [unowned self] in revoke() }
            try loop.onSignal(SIGCHLD) { [unowned self] in reap() }
            try loop.onSignal(SIGTERM) { [unowned self] in loop.exit(code: 128 + SIGTERM) }
            try loop.onSignal(SIGINT) { [unowned self] in loop.exit(code: 128 + SIGINT) }
            loop.at(loop.now) { [unowned self] in open(next: 0) }
            broker.onChannelEnded = { channel in StandardOutput.write("channel \(channel.id) ended\n") }
            let status = try loop.run()
            broker.revokeAll()
            return status
        } catch {
            StandardError.write("accessoryd: \(error)\n")
            return 1
        }
    }

    private func open(next index: Int) {
        guard index < diagnostic.peers.count else { return allOpened() }
        let peer = diagnostic.peers[index]
        broker.open(
            accessory: AccessoryID(UInt64(index + 1)), peer: peer, kind: diagnostic.kind,
            controller: diagnostic.controller
        ) { [unowned self] result in
            switch result {
            case .success(let channel):
                opened.append(channel)
                StandardOutput.write("channel \(index + 1) \(peer) connected via \(channel.controller)\n")
            case .failure(let error):
                failed = true
                StandardOutput.write("channel \(index + 1) \(peer) failed: \(error)\n")
            }
            open(next: index + 1)
        }
    }

    private func allOpened() {
        guard !diagnostic.command.isEmpty, !opened.isEmpty else {
            loop.exit(code: failed ? 1 : 0)
            return
        }
        do {
            child = try ChildProcess.spawn(diagnostic.command, passing: opened.map(\.fd))
        } catch {
            StandardError.write("accessoryd: \(diagnostic.command[0]): \(error)\n")
            loop.exit(code: 127)
        }
    }

    private func revoke() {
        for channel in opened { broker.revoke(accessory: channel.accessory) }
        StandardOutput.write("revoked\n")
    }

    private func reap() {
        guard child > 0 else { return }
        guard let status = ChildProcess.reapIfEnded(child) else { return }
        loop.exit(code: status)
    }
}
