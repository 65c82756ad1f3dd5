import AccessoryCore
import AccessorySystem
import Glibc
import Synchronization

/// The thread a session's bus connection lives on.
///
/// Why a thread of its own: an sd-bus connection must never be used from two
/// threads at once, and `sd_bus_call` blocks until the agent answers, which
/// must not hold up one of Swift's few cooperative threads (two on a
/// two-core gateway). So the connection, and the sd-event loop it is attached
/// to, belong to this thread alone. Everything else reaches them by posting a
/// job: jobs run one at a time in the order posted, which serialises the calls,
/// and signals are turned into jobs too, so events reach the app in the order
/// the agent sent them. Posting wakes the loop through a pipe it watches: an
/// idle session sleeps in epoll, nothing polls.
final class BusThread: Sendable {
    /// What a job may touch, on the bus thread only.
    final class Context {
        let loop: EventLoop
        var connection: BusConnection?

        init(loop: EventLoop) { self.loop = loop }
    }

    typealias Job = @Sendable (Context) -> Void

    private struct Queue {
        var jobs: [Job] = []
        var stopping = false
    }

    private let queue = Mutex(Queue())
    /// The pipe that wakes the loop: the thread reads, posters write.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    init() throws(AccessorySetupError) {
        var fds: [Int32] = [-1, -1]
        let piped = pipe(&fds)
        (wakeRead, wakeWrite) = (fds[0], fds[1])
        guard piped == 0 else { throw Self.failure("pipe", errno) }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
        let loop: EventLoop
        do {
            loop = try EventLoop()
        } catch {
            throw AccessorySetupError(.activationFailed, reason: .message("\(error)"))
        }
        let context = Context(loop: loop)
        do {
            // Weakly: the loop owns this handler, and the context owns the loop.
            _ = try loop.watch(fd: wakeRead) { [self, weak context] _ in
                if let context { runJobs(context) }
            }
        } catch {
            throw AccessorySetupError(.activationFailed, reason: .message("\(error)"))
        }
        // Built here so a failure is thrown to the caller; handed over to the
        // thread, and never touched on this one again.
        let handOver = HandOver(context)
        try Self.spawn { [self] in
            let context = handOver.context
            _ = try? context.loop.run()
            // Closing the connection ends the agent's session for it.
            context.connection = nil
            // Should the loop have failed rather than been stopped, jobs still
            // queued find no connection and fail instead of waiting for ever.
            queue.withLock { $0.stopping = true }
            runJobs(context)
        }
    }

    /// Also after a failed init: every stored property is set before anything throws.
    deinit {
        if wakeRead >= 0 { close(wakeRead) }
        if wakeWrite >= 0 { close(wakeWrite) }
    }

    /// Runs `job` on the bus thread, after the jobs posted before it. False
    /// when the thread is stopping: the job will never run.
    @discardableResult
    func post(_ job: @escaping Job) -> Bool {
        let accepted = queue.withLock { queue in
            guard !queue.stopping else { return false }
            queue.jobs.append(job)
            return true
        }
        if accepted { wake() }
        return accepted
    }

    /// Runs `body` on the bus thread and hands back its result.
    func perform<T: Sendable>(
        _ body: @escaping @Sendable (Context) throws(AccessorySetupError) -> T
    ) async throws(AccessorySetupError) -> T {
        let result: Result<T, AccessorySetupError> = await withCheckedContinuation { continuation in
            let accepted = post { context in
                continuation.resume(returning: Result { () throws(AccessorySetupError) in try body(context) })
            }
            if !accepted { continuation.resume(returning: .failure(AccessorySetupError(.invalidated))) }
        }
        return try result.get()
    }

    /// Lets the jobs already posted run, then ends the thread, which closes
    /// the connection. Later posts are refused.
    func stop() {
        let first = queue.withLock { queue in
            guard !queue.stopping else { return false }
            queue.jobs.append { $0.loop.exit(code: 0) }
            queue.stopping = true
            return true
        }
        if first { wake() }
    }

    /// A full pipe (EAGAIN) is fine: the thread has wake-ups pending already.
    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// On the bus thread, when the pipe says jobs are waiting.
    private func runJobs(_ context: Context) {
        var drained = [UInt8](repeating: 0, count: 256)
        while read(wakeRead, &drained, drained.count) == drained.count {}
        while true {
            let jobs = queue.withLock { queue in
                defer { queue.jobs.removeAll() }
                return queue.jobs
            }
            if jobs.isEmpty { return }
            for job in jobs { job(context) }
        }
    }

    private static func failure(_ operation: String, _ code: Int32) -> AccessorySetupError {
        AccessorySetupError(.activationFailed, reason: .message("\(operation): \(String(cString: strerror(code)))"))
    }

    private final class HandOver: @unchecked Sendable {
        let context: Context
        init(_ context: Context) { self.context = context }
    }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// A detached pthread running `body` (no Foundation in this library).
    private static func spawn(_ body: @escaping @Sendable () -> Void) throws(AccessorySetupError) {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            Unmanaged<Body>.fromOpaque(argument).takeRetainedValue().run()
            return nil
        }, box)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw failure("pthread_create", result)
        }
        pthread_detach(thread)
    }
}
