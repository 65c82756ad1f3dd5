import AccessoryCodecs
import AccessoryCore
import AccessoryPlatform
import Glibc

/// Scans through nl80211 on the event loop: one socket for requests
/// (TRIGGER_SCAN with an acknowledgement, GET_SCAN dumps) whose answers are
/// read as they arrive and bounded by `replyTimeout` (`NL80211RequestChannel`),
/// and one socket, subscribed to the `scan` and `config` multicast groups,
/// that the loop watches for scan completions and interfaces coming and going.
/// Both non-blocking: nothing here waits for the kernel. Only `open` asks the
/// kernel's generic netlink controller for the family and groups with libnl's
/// blocking calls, once, at start; the controller answers within the send
/// itself (no driver, no peer involved).
///
/// The event socket joins the `scan` group when this is created, before any
/// scan is triggered: a scan that completes between a trigger and a later
/// subscription would never be heard of (iw's scan code warns of this race).
///
/// Bytes are encoded and decoded by AccessoryCodecs; libnl only carries them.
public final class NL80211Scanner {
    public let familyID: UInt16
    private let requests: NL80211RequestChannel
    private let events: GenericNetlinkSocket
    /// Replies are matched by this number on our own socket (its port is ours
    /// alone), so counting from 1 is enough: no clock needed to make it unique.
    private var sequence: UInt32 = 1

    /// How long a request waits for the kernel's whole answer before it ends with `timedOut`.
    public static let replyTimeout: Duration = .seconds(5)

    /// Opens both sockets. Nil when the kernel has no nl80211 (no cfg80211
    /// loaded, or a container without it): then there is no Wi-Fi to scan.
    public static func open(loop: EventLoop, scheduler: (any Scheduler)? = nil) throws(SystemError) -> NL80211Scanner? {
        let requests = try GenericNetlinkSocket()
        guard let family = requests.resolveFamily(NL80211.familyName) else { return nil }
        var groups: [UInt32] = []
        for name in ["scan", "config"] {
            guard let group = requests.resolveGroup(family: NL80211.familyName, group: name) else {
                throw SystemError(operation: "genl_ctrl_resolve_grp(nl80211, \(name))", errno: ENOENT)
            }
            groups.append(group)
        }
        try requests.setNonBlocking()
        let events = try GenericNetlinkSocket()
        try events.listen(to: groups)
        let channel = try NL80211RequestChannel(loop: loop, scheduler: scheduler, transport: requests, timeout: replyTimeout)
        return NL80211Scanner(familyID: family, requests: channel, events: events)
    }

    /// Over any transport: tests give it a socket pair whose other end plays the kernel.
    init(familyID: UInt16, requests: NL80211RequestChannel, events: GenericNetlinkSocket) {
        self.familyID = familyID
        self.requests = requests
        self.events = events
    }

    deinit { requests.close() }

    /// Requests sent or waiting, not answered yet.
    var pendingRequests: Int { requests.pending }

    /// The descriptor to watch for readability; then call `readEvents()`.
    public var eventFileDescriptor: Int32 { events.fileDescriptor }

    public enum TriggerOutcome: Hashable, Sendable {
        /// The kernel started our scan; NEW_SCAN_RESULTS or SCAN_ABORTED follows.
        case started
        /// EBUSY: the radio is already scanning for someone else (wpa_supplicant,
        /// iw) or is busy connecting. That scan's results are as good as ours.
        case busy
    }

    /// Sends TRIGGER_SCAN; `completion` gets the kernel's acknowledgement on the loop.
    public func trigger(_ request: NL80211ScanRequest, completion: @escaping (Result<TriggerOutcome, NL80211RequestError>) -> Void) {
        let sequence = nextSequence()
        let bytes: [UInt8]
        do { bytes = try request.encode(familyID: familyID, sequence: sequence) } catch {
            // Nothing was sent: said at once.
            completion(.failure(.transport(SystemError(operation: "encode TRIGGER_SCAN", errno: EMSGSIZE))))
            return
        }
        requests.send(bytes, expecting: assembly("TRIGGER_SCAN", .acknowledgement, sequence)) { outcome in
            switch outcome {
            case .acknowledged, .dumped: completion(.success(.started))
            case .failed(.kernel(_, EBUSY)): completion(.success(.busy))
            case .failed(let error): completion(.failure(error))
            }
        }
    }

    /// What GET_SCAN returned for one interface.
    public struct Dump: Sendable {
        public var results: [NL80211ScanResult]
        /// BSSes whose messages did not decode; the rest are still used.
        public var malformed: [NL80211DecodingError]
        /// NLM_F_DUMP_INTR: the cache changed during the dump, which may miss a BSS.
        public var interrupted: Bool
        /// BSSes beyond `NL80211ReplyAssembly.maximumResults`, not kept.
        public var dropped = 0

        public init(results: [NL80211ScanResult], malformed: [NL80211DecodingError], interrupted: Bool) {
            self.results = results
            self.malformed = malformed
            self.interrupted = interrupted
        }
    }

    /// Dumps the kernel's BSS cache for the interface (every BSS it heard in
    /// the last 30 s or so; `seenMillisecondsAgo` says how long ago). The parts
    /// are read as they arrive; `completion` gets the whole dump on the loop.
    public func scanResults(interfaceIndex: UInt32, completion: @escaping (Result<Dump, NL80211RequestError>) -> Void) {
        let sequence = nextSequence()
        let expected = assembly("GET_SCAN", .scanDump, sequence)
        var writer = NetlinkAttributeWriter()
        let bytes: [UInt8]
        do {
            try writer.append(type: NL80211.Attribute.interfaceIndex, uint32: interfaceIndex)
            bytes = try GenericNetlinkMessage.encode(
                familyID: familyID,
                flags: NetlinkMessageHeader.Flags.request | NetlinkMessageHeader.Flags.dump,
                sequence: sequence, command: NL80211.Command.getScan, version: 0,
                attributes: writer.bytes)
        } catch {
            completion(.failure(.transport(SystemError(operation: "encode GET_SCAN", errno: EMSGSIZE))))
            return
        }
        requests.send(bytes, expecting: expected) { outcome in
            switch outcome {
            case .dumped(let dump): completion(.success(dump))
            case .acknowledged: completion(.success(Dump(results: [], malformed: [], interrupted: false)))
            case .failed(let error): completion(.failure(error))
            }
        }
    }

    private func assembly(_ operation: String, _ kind: NL80211ReplyAssembly.Kind, _ sequence: UInt32) -> NL80211ReplyAssembly {
        NL80211ReplyAssembly(operation: operation, kind: kind, sequence: sequence, familyID: familyID)
    }

    /// Everything waiting on the event socket, decoded.
    public struct EventBatch: Sendable {
        public var events: [NL80211Event] = []
        /// ENOBUFS: the kernel dropped events because the socket was full.
        public var lostEvents = false
        public var malformed = 0
    }

    /// Reads what waits on the event socket (non-blocking), at most
    /// `eventDatagramsPerCall` datagrams: the loop calls again while more wait.
    public func readEvents() -> EventBatch {
        var batch = EventBatch()
        for _ in 0..<Self.eventDatagramsPerCall {
            let datagram: [UInt8]?
            do { datagram = try events.receive() } catch {
                if error.errno == ENOBUFS {
                    batch.lostEvents = true
                    continue
                }
                return batch
            }
            guard let datagram else { return batch }
            var reader = NetlinkMessageReader(datagram)
            while true {
                do {
                    guard let message = try reader.next() else { break }
                    if let event = try NL80211Event.decode(message, familyID: familyID) { batch.events.append(event) }
                } catch {
                    batch.malformed += 1
                    break
                }
            }
        }
        return batch
    }

    static let eventDatagramsPerCall = 256

    private func nextSequence() -> UInt32 {
        sequence &+= 1
        return sequence
    }
}
