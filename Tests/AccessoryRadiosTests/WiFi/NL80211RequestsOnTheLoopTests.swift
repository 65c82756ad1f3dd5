import AccessoryCore
import AccessoryCodecs
import Foundation
import Glibc
import Testing

@testable import AccessoryPlatform
@testable import AccessoryRadios

/// nl80211 requests on the event loop, over a unix socket pair whose other end
/// plays the kernel: it decodes the request the scanner sent and answers (or
/// not) with netlink bytes, including a GET_SCAN dump captured in the lab.
/// The host has no nl80211 and its kernel never stalls; the peer can.
@Suite("nl80211 requests on the event loop", .serialized)
struct NL80211RequestsOnTheLoopTests {
    /// The kernel's end and the scanner's.
    final class SocketPair: NetlinkTransport {
        let fileDescriptor: Int32
        let kernel: Int32
        /// The next receive fails with this errno, as the kernel's socket does
        /// with ENOBUFS when it dropped messages for it.
        var failNextReceive: Int32?

        init() throws {
            var fds: [Int32] = [-1, -1]
            let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            try #require(socketpair(AF_UNIX, type, 0, &fds) == 0)
            (fileDescriptor, kernel) = (fds[0], fds[1])
        }

        deinit {
            close(fileDescriptor)
            close(kernel)
        }

        func send(_ bytes: [UInt8]) throws(SystemError) {
            guard Glibc.send(fileDescriptor, bytes, bytes.count, 0) == bytes.count else { throw SystemError.last("send") }
        }

        func receive() throws(SystemError) -> [UInt8]? {
            if let errno = failNextReceive {
                failNextReceive = nil
                throw SystemError(operation: "nl_recv", errno: errno)
            }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = recv(fileDescriptor, &buffer, buffer.count, 0)
            if count < 0 { if errno == EAGAIN { return nil } else { throw SystemError.last("recv") } }
            return Array(buffer[0..<count])
        }

        /// What the scanner sent, decoded: the request's header.
        func request() -> NetlinkMessageHeader? {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(kernel, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            return try? NetlinkMessage(parsing: Array(buffer[0..<count])).header
        }

        func answer(_ bytes: [UInt8]) { _ = Glibc.send(kernel, bytes, bytes.count, 0) }
    }

    /// The 5/6 GHz GET_SCAN dump captured in the lab (Fixtures/wifi, two BSSes
    /// and NLMSG_DONE), split into its messages with the sequence rewritten.
    static func capturedDump(sequence: UInt32) throws -> (family: UInt16, messages: [[UInt8]]) {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("AccessoryCodecsTests/Fixtures/wifi/nl80211-get-scan-dump-5-6ghz.bin")
        let bytes = Array(try Data(contentsOf: url))
        var messages: [[UInt8]] = []
        var offset = 0
        var family: UInt16 = 0
        while offset + 16 <= bytes.count {
            let length = Int(UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24)
            var message = Array(bytes[offset..<offset + length])
            withUnsafeBytes(of: sequence.littleEndian) { for i in 0..<4 { message[8 + i] = $0[i] } }
            if family == 0 { family = UInt16(message[4]) | UInt16(message[5]) << 8 }
            messages.append(message)
            offset += (length + 3) & ~3
        }
        return (family, messages)
    }

    /// NLMSG_ERROR for `sequence` carrying -errno (0: an acknowledgement).
    static func errorMessage(sequence: UInt32, errno: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        append(UInt32(36)); append(UInt16(2)); append(UInt16(0)); append(sequence); append(UInt32(0))
        append(Int32(-errno))
        append(UInt32(20)); append(UInt16(0)); append(UInt16(0)); append(sequence); append(UInt32(0))  // the request's header
        return bytes
    }

    private func scanner(_ loop: EventLoop, _ scheduler: ManualScheduler, _ pair: SocketPair, family: UInt16) throws -> NL80211Scanner {
        let channel = try NL80211RequestChannel(loop: loop, scheduler: scheduler, transport: pair, timeout: .milliseconds(300))
        return NL80211Scanner(familyID: family, requests: channel, events: try GenericNetlinkSocket())
    }

    /// Serves what is ready on the loop; when nothing is, moves the manual
    /// scheduler to its next deadline (a request's timeout): timeouts pass in
    /// microseconds. At most 400 turns (a bound against a hang, not a timing).
    private func run(_ loop: EventLoop, _ scheduler: ManualScheduler, until done: () -> Bool) {
        for _ in 0..<400 where !done() {
            if loop.runOnce(timeout: .zero) { continue }
            scheduler.runDue()
            if done() { return }
            if let next = scheduler.nextDeadline, next > scheduler.now { scheduler.advance(to: next) }
        }
    }

    @Test("a peer that never answers GET_SCAN: the loop serves other sources meanwhile, and the dump ends with timedOut")
    func stalledDump() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        let scheduler = ManualScheduler()
        let pair = try SocketPair()
        let scanner = try scanner(loop, scheduler, pair, family: 32)
        var order: [String] = []
        var outcome: Result<NL80211Scanner.Dump, NL80211RequestError>?
        let other = try EventLoopWakeup()
        try loop.watch(other) { order.append(outcome == nil ? "other source served, dump pending" : "other source served, dump over") }
        let kernelWatch = try loop.watch(fd: pair.kernel) { _ in
            if let request = pair.request() { order.append("peer got type \(request.type) flags \(request.flags)") }
            other.wake()
        }
        defer { loop.stopWatching(kernelWatch) }

        scanner.scanResults(interfaceIndex: 3) { result in
            outcome = result
            order.append("dump ended")
        }
        run(loop, scheduler, until: { outcome != nil })

        #expect(order == ["peer got type 32 flags 769", "other source served, dump pending", "dump ended"])
        #expect(throws: NL80211RequestError.timedOut(operation: "GET_SCAN")) { try outcome?.get() }
    }

    @Test("a dump in many datagrams, after a stale answer, is put together until NLMSG_DONE")
    func multiPartDump() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        let scheduler = ManualScheduler()
        let pair = try SocketPair()
        let (family, _) = try Self.capturedDump(sequence: 0)
        let scanner = try scanner(loop, scheduler, pair, family: family)
        var partsSent = 0
        let kernelWatch = try loop.watch(fd: pair.kernel) { _ in
            guard let request = pair.request(), let dump = try? Self.capturedDump(sequence: request.sequence) else { return }
            // A late part of some earlier dump first: another sequence number.
            if let stale = try? Self.capturedDump(sequence: request.sequence &- 1) { pair.answer(stale.messages[0]) }
            for message in dump.messages {
                pair.answer(message)
                partsSent += 1
            }
        }
        defer { loop.stopWatching(kernelWatch) }
        var outcome: Result<NL80211Scanner.Dump, NL80211RequestError>?
        scanner.scanResults(interfaceIndex: 3) { outcome = $0 }
        run(loop, scheduler, until: { outcome != nil })

        let dump = try #require(try outcome?.get())
        #expect(partsSent == 3)
        #expect(dump.results.count == 2)
        #expect(dump.malformed.isEmpty)
    }

    @Test("TRIGGER_SCAN: EBUSY is busy, another errno a kernel error, bytes that are not netlink malformed")
    func acknowledgements() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        let scheduler = ManualScheduler()
        let pair = try SocketPair()
        let scanner = try scanner(loop, scheduler, pair, family: 32)
        var answers: [(UInt32) -> [UInt8]] = [
            { Self.errorMessage(sequence: $0, errno: 0) },
            { Self.errorMessage(sequence: $0, errno: EBUSY) },
            { Self.errorMessage(sequence: $0, errno: ENETDOWN) },
            { _ in [1, 2, 3] },
        ]
        let kernelWatch = try loop.watch(fd: pair.kernel) { _ in
            while let request = pair.request() { pair.answer(answers.removeFirst()(request.sequence)) }
        }
        defer { loop.stopWatching(kernelWatch) }
        var outcomes: [Result<NL80211Scanner.TriggerOutcome, NL80211RequestError>] = []
        let request = NL80211ScanRequest(interfaceIndex: 3, probing: .passive)
        for _ in 0..<4 { scanner.trigger(request) { outcomes.append($0) } }
        run(loop, scheduler, until: { outcomes.count == 4 })

        #expect(outcomes.count == 4)
        guard outcomes.count == 4 else { return }
        #expect(try outcomes[0].get() == .started)
        #expect(try outcomes[1].get() == .busy)
        #expect(throws: NL80211RequestError.kernel(operation: "TRIGGER_SCAN", errno: ENETDOWN)) { try outcomes[2].get() }
        #expect(throws: NL80211RequestError.malformedReply(operation: "TRIGGER_SCAN")) { try outcomes[3].get() }
    }

    @Test("ENOBUFS in the middle of a dump ends it as incomplete; its rest is skipped and the next dump is whole")
    func lostParts() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        let scheduler = ManualScheduler()
        let pair = try SocketPair()
        let (family, _) = try Self.capturedDump(sequence: 0)
        let scanner = try scanner(loop, scheduler, pair, family: family)
        var requests = 0
        let kernelWatch = try loop.watch(fd: pair.kernel) { _ in
            while let request = pair.request(), let dump = try? Self.capturedDump(sequence: request.sequence) {
                requests += 1
                if requests == 1 {
                    // The first part arrives, then the socket overflows; the rest still comes.
                    pair.answer(dump.messages[0])
                    pair.failNextReceive = ENOBUFS
                    pair.answer(dump.messages[1])
                    pair.answer(dump.messages[2])
                } else {
                    for message in dump.messages { pair.answer(message) }
                }
            }
        }
        defer { loop.stopWatching(kernelWatch) }
        var first: Result<NL80211Scanner.Dump, NL80211RequestError>?
        var second: Result<NL80211Scanner.Dump, NL80211RequestError>?
        scanner.scanResults(interfaceIndex: 3) { first = $0 }
        run(loop, scheduler, until: { first != nil })
        scanner.scanResults(interfaceIndex: 3) { second = $0 }
        run(loop, scheduler, until: { second != nil })

        #expect(throws: NL80211RequestError.transport(SystemError(operation: "nl_recv", errno: ENOBUFS))) { try first?.get() }
        #expect(try second?.get().results.count == 2)
    }
}
