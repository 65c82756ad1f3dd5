import AccessoryCodecs
import AccessoryCore
import AccessoryPlatform
import Glibc

/// The answer to one nl80211 request, put together from the datagrams as they
/// arrive: an acknowledgement (NLMSG_ERROR with 0, or an errno), or a dump,
/// multi-part until NLMSG_DONE and spread over as many datagrams as the
/// kernel likes. Pure: fed bytes, it says when the answer is complete.
///
/// Every byte is hostile until decoded: messages for another sequence (a
/// stale answer to a request that timed out) are skipped, a datagram that is
/// not netlink ends the request as malformed, a BSS that does not decode is
/// counted, and at most `maximumResults` BSSes are kept.
struct NL80211ReplyAssembly {
    enum Kind: Hashable {
        case acknowledgement
        case scanDump
    }

    enum Outcome {
        case acknowledged
        case dumped(NL80211Scanner.Dump)
        case failed(NL80211RequestError)
    }

    let operation: String
    let kind: Kind
    let sequence: UInt32
    let familyID: UInt16
    static let maximumResults = 1024
    private(set) var dump = NL80211Scanner.Dump(results: [], malformed: [], interrupted: false)

    init(operation: String, kind: Kind, sequence: UInt32, familyID: UInt16) {
        self.operation = operation
        self.kind = kind
        self.sequence = sequence
        self.familyID = familyID
    }

    /// Takes one datagram; the outcome once the answer is complete, nil while more is due.
    mutating func consume(_ datagram: [UInt8]) -> Outcome? {
        var reader = NetlinkMessageReader(datagram)
        while true {
            let next: NetlinkMessage?
            do { next = try reader.next() } catch { return .failed(.malformedReply(operation: operation)) }
            guard let message = next else { return nil }
            guard message.header.sequence == sequence else { continue }  // a stale answer
            if message.header.flags & Self.dumpInterruptedFlag != 0 { dump.interrupted = true }
            switch message.header.type {
            case NetlinkMessageHeader.MessageType.error:
                let errno: Int32?
                do {
                    if case .kernelError(let code)? = try message.error() {
                        errno = code == Int32.min ? EIO : -code
                    } else {
                        errno = nil
                    }
                } catch {
                    return .failed(.malformedReply(operation: operation))
                }
                if let errno { return .failed(.kernel(operation: operation, errno: errno)) }
                // An acknowledgement ends a request that asked for one; a dump ends at NLMSG_DONE.
                if kind == .acknowledgement { return .acknowledged }
            case NetlinkMessageHeader.MessageType.done:
                return kind == .scanDump ? .dumped(dump) : .acknowledged
            case familyID where kind == .scanDump:
                do {
                    let result = try NL80211ScanResultDecoder.decodeScanResult(message)
                    if dump.results.count < Self.maximumResults { dump.results.append(result) } else { dump.dropped += 1 }
                } catch {
                    if dump.malformed.count < Self.maximumResults { dump.malformed.append(error) }
                }
            default:
                continue
            }
        }
    }

    /// NLM_F_DUMP_INTR.
    static let dumpInterruptedFlag: UInt16 = 0x10
}
