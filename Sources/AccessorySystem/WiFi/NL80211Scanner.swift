import AccessoryCodecs
import AccessoryCore
import Glibc

/// Scans through nl80211: one blocking socket for requests (TRIGGER_SCAN with
/// an acknowledgement, GET_SCAN dumps, both answered by the kernel at once)
/// and one non-blocking socket, subscribed to the `scan` and `config`
/// multicast groups, that the event loop watches for scan completions and
/// interfaces coming and going.
///
/// The event socket joins the `scan` group when this is created, before any
/// scan is triggered: a scan that completes between a trigger and a later
/// subscription would never be heard of (iw's scan code warns of this race).
///
/// Bytes are encoded and decoded by AccessoryCodecs; libnl only carries them.
public final class NL80211Scanner {
    public let familyID: UInt16
    private let requests: GenericNetlinkSocket
    private let events: GenericNetlinkSocket
    private var sequence: UInt32 = UInt32(truncatingIfNeeded: time(nil))

    /// How long a request waits for the kernel's answer before giving up.
    public static let replyTimeout: Duration = .seconds(5)

    /// Opens both sockets. Nil when the kernel has no nl80211 (no cfg80211
    /// loaded, or a container without it): then there is no Wi-Fi to scan.
    public static func open() throws(SystemError) -> NL80211Scanner? {
        let requests = try GenericNetlinkSocket()
        guard let family = requests.resolveFamily(NL80211.familyName) else { return nil }
        var groups: [UInt32] = []
        for name in ["scan", "config"] {
            guard let group = requests.resolveGroup(family: NL80211.familyName, group: name) else {
                throw SystemError(operation: "genl_ctrl_resolve_grp(nl80211, \(name))", errno: ENOENT)
            }
            groups.append(group)
        }
        try requests.setReceiveTimeout(replyTimeout)
        let events = try GenericNetlinkSocket()
        try events.listen(to: groups)
        return NL80211Scanner(familyID: family, requests: requests, events: events)
    }

    private init(familyID: UInt16, requests: GenericNetlinkSocket, events: GenericNetlinkSocket) {
        self.familyID = familyID
        self.requests = requests
        self.events = events
    }

    /// The descriptor to watch for readability; then call `readEvents()`.
    public var eventFileDescriptor: Int32 { events.fileDescriptor }

    public enum TriggerOutcome: Hashable, Sendable {
        /// The kernel started our scan; NEW_SCAN_RESULTS or SCAN_ABORTED follows.
        case started
        /// EBUSY: the radio is already scanning for someone else (wpa_supplicant,
        /// iw) or is busy connecting. That scan's results are as good as ours.
        case busy
    }

    /// Sends TRIGGER_SCAN and waits for the kernel's acknowledgement.
    public func trigger(_ request: NL80211ScanRequest) throws(SystemError) -> TriggerOutcome {
        let sequence = nextSequence()
        let bytes: [UInt8]
        do { bytes = try request.encode(familyID: familyID, sequence: sequence) } catch {
            throw SystemError(operation: "encode TRIGGER_SCAN", errno: EMSGSIZE)
        }
        try requests.send(bytes)
        do {
            try awaitAcknowledgement(sequence: sequence, operation: "TRIGGER_SCAN")
            return .started
        } catch where error.errno == EBUSY {
            return .busy
        }
    }

    /// What GET_SCAN returned for one interface.
    public struct Dump: Sendable {
        public var results: [NL80211ScanResult]
        /// BSSes whose messages did not decode; the rest are still used.
        public var malformed: [NL80211DecodingError]
        /// NLM_F_DUMP_INTR: the cache changed during the dump, which may miss a BSS.
        public var interrupted: Bool
    }

    /// Dumps the kernel's BSS cache for the interface (every BSS it heard in
    /// the last 30 s or so; `seenMillisecondsAgo` says how long ago).
    public func scanResults(interfaceIndex: UInt32) throws(SystemError) -> Dump {
        let sequence = nextSequence()
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
            throw SystemError(operation: "encode GET_SCAN", errno: EMSGSIZE)
        }
        try requests.send(bytes)

        var dump = Dump(results: [], malformed: [], interrupted: false)
        while true {
            guard let datagram = try requests.receive() else {
                throw SystemError(operation: "GET_SCAN (no answer)", errno: ETIMEDOUT)
            }
            var reader = NetlinkMessageReader(datagram)
            while true {
                let next: NetlinkMessage?
                do { next = try reader.next() } catch {
                    throw SystemError(operation: "GET_SCAN (malformed reply)", errno: EBADMSG)
                }
                guard let message = next else { break }
                guard message.header.sequence == sequence else { continue }  // a stale reply
                if message.header.flags & Self.dumpInterruptedFlag != 0 { dump.interrupted = true }
                switch message.header.type {
                case NetlinkMessageHeader.MessageType.done:
                    return dump
                case NetlinkMessageHeader.MessageType.error:
                    if let errno = Self.errno(of: message) { throw SystemError(operation: "GET_SCAN", errno: errno) }
                case familyID:
                    do { dump.results.append(try NL80211ScanResultDecoder.decodeScanResult(message)) } catch {
                        dump.malformed.append(error)
                    }
                default:
                    continue
                }
            }
        }
    }

    /// Everything waiting on the event socket, decoded.
    public struct EventBatch: Sendable {
        public var events: [NL80211Event] = []
        /// ENOBUFS: the kernel dropped events because the socket was full.
        public var lostEvents = false
        public var malformed = 0
    }

    /// Drains the event socket (non-blocking). Call when it is readable.
    public func readEvents() -> EventBatch {
        var batch = EventBatch()
        while true {
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
    }

    /// NLM_F_DUMP_INTR.
    private static let dumpInterruptedFlag: UInt16 = 0x10

    private func nextSequence() -> UInt32 {
        sequence &+= 1
        return sequence
    }

    /// Reads replies until the NLMSG_ERROR for `sequence`; throws its errno unless it is 0.
    private func awaitAcknowledgement(sequence: UInt32, operation: String) throws(SystemError) {
        while true {
            guard let datagram = try requests.receive() else {
                throw SystemError(operation: "\(operation) (no answer)", errno: ETIMEDOUT)
            }
            var reader = NetlinkMessageReader(datagram)
            while true {
                let next: NetlinkMessage?
                do { next = try reader.next() } catch {
                    throw SystemError(operation: "\(operation) (malformed reply)", errno: EBADMSG)
                }
                guard let message = next else { break }
                guard message.header.sequence == sequence,
                    message.header.type == NetlinkMessageHeader.MessageType.error
                else { continue }
                if let errno = Self.errno(of: message) { throw SystemError(operation: operation, errno: errno) }
                return
            }
        }
    }

    /// The positive errno an NLMSG_ERROR carries; nil for an acknowledgement.
    private static func errno(of message: NetlinkMessage) -> Int32? {
        do {
            guard case .kernelError(let code)? = try message.error() else { return nil }
            return code == Int32.min ? EIO : -code
        } catch {
            return EBADMSG
        }
    }
}
