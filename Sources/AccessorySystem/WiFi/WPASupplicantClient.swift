import AccessoryCodecs
import AccessoryCore
import Glibc

/// Talks to the wpa_supplicant of one interface, as wpa_cli does: one socket for
/// requests, another ATTACHed for events. Both are bound under the daemon's
/// runtime directory (never /tmp), so nobody else can take their names.
///
/// Requests wait for their reply, bounded by a timeout: wpa_supplicant answers
/// from its own loop within milliseconds, and a linear sequence of requests
/// keeps the joiner readable. Events arrive through the event loop.
public final class WPASupplicantClient {
    public let interface: String
    public let controlPath: String
    public let requestTimeout: Duration
    private let requests: WPAControlSocket
    private let runtimeDirectory: String
    private var events: WPAControlSocket?
    private var eventWatch: WatchToken?
    private weak var loop: EventLoop?

    /// The control directory is wpa_supplicant's `ctrl_interface` (`-C`); Debian's default is /run/wpa_supplicant.
    public init(
        interface: String, controlDirectory: String = "/run/wpa_supplicant", runtimeDirectory: String,
        requestTimeout: Duration = .seconds(3)
    ) throws(SystemError) {
        self.interface = interface
        self.controlPath = "\(controlDirectory)/\(interface)"
        self.runtimeDirectory = runtimeDirectory
        self.requestTimeout = requestTimeout
        requests = try WPAControlSocket(controlPath: controlPath, localPath: Self.localPath(runtimeDirectory, interface, "request"))
    }

    deinit { detach() }

    /// Sends `command` and returns its reply's bytes. A reply left over from an
    /// earlier request that timed out is discarded first, so replies never shift.
    public func request(_ command: WPACommand) throws(WPAControlError) -> [UInt8] {
        let reply: [UInt8]?
        do {
            while try requests.receive() != nil {}
            try requests.send(command.bytes)
            reply = try requests.receive(waitingUpTo: requestTimeout)
        } catch {
            throw .system(error)
        }
        guard let reply else { throw .noReply(command: command.description) }
        return reply
    }

    /// Sends `command` and expects `OK`.
    public func perform(_ command: WPACommand) throws(WPAControlError) {
        let reply = try request(command)
        do { try WPAReply.expectOK(reply) } catch { throw .reply(error, command: command.description) }
    }

    public func addNetwork() throws(WPAControlError) -> WPANetworkID {
        let reply = try request(.addNetwork)
        do { return try WPAReply.networkID(reply) } catch { throw .reply(error, command: "ADD_NETWORK") }
    }

    public func status() throws(WPAControlError) -> WPAStatus {
        let reply = try request(.status)
        do { return try WPAReply.status(reply) } catch { throw .reply(error, command: "STATUS") }
    }

    public func networks() throws(WPAControlError) -> [WPANetworkListEntry] {
        let reply = try request(.listNetworks)
        do { return try WPAReply.networkList(reply) } catch { throw .reply(error, command: "LIST_NETWORKS") }
    }

    public func ssid(of network: WPANetworkID) throws(WPAControlError) -> SSID {
        let command = WPACommand.getNetwork(network, .ssid)
        let reply = try request(command)
        do { return try WPAReply.ssidValue(reply) } catch { throw .reply(error, command: command.description) }
    }

    /// Opens the event socket, ATTACHes it and delivers each event on `loop`.
    /// Datagrams that are not events are passed to `onMalformed` (for a debug log), never fatal.
    public func attach(
        loop: EventLoop, onEvent: @escaping (WPAEventMessage) -> Void,
        onMalformed: @escaping (WPAEventError) -> Void = { _ in }
    ) throws(WPAControlError) {
        detach()
        let socket: WPAControlSocket
        do {
            socket = try WPAControlSocket(controlPath: controlPath, localPath: Self.localPath(runtimeDirectory, interface, "events"))
            try socket.send(WPACommand.attach.bytes)
        } catch {
            throw .system(error)
        }
        // Events may already flow before the OK; wait for the OK itself.
        while true {
            let reply: [UInt8]?
            do { reply = try socket.receive(waitingUpTo: requestTimeout) } catch { throw .system(error) }
            guard let reply else { throw .noReply(command: "ATTACH") }
            if reply.first == UInt8(ascii: "<") { continue }
            do { try WPAReply.expectOK(reply) } catch { throw .reply(error, command: "ATTACH") }
            break
        }
        do {
            eventWatch = try loop.watch(fd: socket.fd) { [weak self, weak socket] _ in
                guard let socket, self != nil else { return }
                while let datagram = try? socket.receive() {
                    do throws(WPAEventError) { onEvent(try WPAEventParser.parse(datagram)) } catch { onMalformed(error) }
                }
            }
        } catch {
            throw .system(error)
        }
        events = socket
        self.loop = loop
    }

    /// Stops the events: DETACH (best effort) and close.
    public func detach() {
        if let eventWatch { loop?.stopWatching(eventWatch) }
        eventWatch = nil
        if let events { try? events.send(WPACommand.detach.bytes) }
        events = nil
    }

    private static func localPath(_ directory: String, _ interface: String, _ role: String) -> String {
        "\(directory)/wpa-\(interface)-\(role)-\(getpid())"
    }
}
