import AccessoryCore
import AccessoryPlatform
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
/// the agent sent them. Posting wakes the loop (`EventLoopWakeup`): an idle
/// session sleeps in epoll, nothing polls.
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
    /// Wakes the loop when jobs are posted.
    private let wakeup: EventLoopWakeup

    init() throws(AccessorySetupError) {
        do {
            wakeup = try EventLoopWakeup()
            // The app's own watchdog must not be kept alive by this thread.
            let loop = try EventLoop(pingsWatchdog: false)
            let context = Context(loop: loop)
            // Weakly: the loop owns this handler, and the context owns the loop.
            try loop.watch(wakeup) { [self, weak context] in
                if let context { runJobs(context) }
            }
            try start(HandOver(context))
        } catch {
            throw AccessorySetupError(.activationFailed, reason: .message("\(error)"))
        }
    }

    /// Runs the loop on a thread of its own. The context is built by the
    /// caller so a failure is thrown to it; handed over to the thread, and
    /// never touched on the caller's again.
    private func start(_ handOver: HandOver) throws(SystemError) {
        try DetachedThread.start { [self] in
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

    /// Runs `job` on the bus thread, after the jobs posted before it. False
    /// when the thread is stopping: the job will never run.
    @discardableResult
    func post(_ job: @escaping Job) -> Bool {
        let accepted = queue.withLock { queue in
            guard !queue.stopping else { return false }
            queue.jobs.append(job)
            return true
        }
        if accepted { wakeup.wake() }
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
        if first { wakeup.wake() }
    }

    /// On the bus thread, when woken: jobs are waiting.
    private func runJobs(_ context: Context) {
        while true {
            let jobs = queue.withLock { queue in
                defer { queue.jobs.removeAll() }
                return queue.jobs
            }
            if jobs.isEmpty { return }
            for job in jobs { job(context) }
        }
    }

    private final class HandOver: @unchecked Sendable {
        let context: Context
        init(_ context: Context) { self.context = context }
    }
}
