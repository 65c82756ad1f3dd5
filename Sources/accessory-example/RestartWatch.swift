import AccessorySetup
import Synchronization

/// Reads the session's events for `serviceRestarted`, so that a read that
/// failed can wait for accessoryd to be back, for a bounded time: a channel
/// closed by anything else (the accessory gone out of range) is followed by
/// no such event, and the read has failed then; an accessory removed from the
/// app (`accessoryRemoved`) ends the wait at once, as no restart brings it
/// back. The events stream is never abandoned mid-wait (cancelling its reader
/// would end it for good).
final class RestartWatch: Sendable {
    private struct State {
        var restarts = 0
        var ended = false
        /// An accessory was taken from the app: a closed channel is final.
        var removed = false
        var waiter: (seen: Int, continuation: CheckedContinuation<Bool, Never>)?
    }

    private let state = Mutex(State())

    init(_ session: AccessorySession) {
        Task { [self] in
            for await event in session.events {
                switch event.eventType {
                case .serviceRestarted:
                    say("event: \(event)")
                    settle { $0.restarts += 1 }
                case .accessoryRemoved:
                    settle { $0.removed = true }
                default: break
                }
            }
            settle { $0.ended = true }
        }
    }

    /// The restarts seen so far; pass it to `wait(after:)`.
    var restarts: Int { state.withLock { $0.restarts } }

    /// True once a restart after the `seen`-th is told, false when the session
    /// ended or none came within `limit`.
    /// `limit` is a `Task.sleep`, an exception to the injected scheduler
    /// (README, "Time"): an example app on the async client library, which
    /// has no clock to inject, bounding how long it waits for a person.
    func wait(after seen: Int, limit: Duration = .seconds(120)) async -> Bool {
        let timer = Task { [self] in
            try? await Task.sleep(for: limit)
            if !Task.isCancelled { expire() }
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let now: Bool? = state.withLock { state in
                if state.restarts > seen { return true }
                if state.ended || state.removed { return false }
                state.waiter = (seen, continuation)
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Applies `change`, then resumes the waiter if its answer is known.
    private func settle(_ change: (inout State) -> Void) {
        let resume: (CheckedContinuation<Bool, Never>, Bool)? = state.withLock { state in
            change(&state)
            guard let waiter = state.waiter else { return nil }
            if state.restarts > waiter.seen || state.ended || state.removed {
                state.waiter = nil
                return (waiter.continuation, state.restarts > waiter.seen)
            }
            return nil
        }
        if let (continuation, answer) = resume { continuation.resume(returning: answer) }
    }

    private func expire() {
        let waiter = state.withLock { state in
            defer { state.waiter = nil }
            return state.waiter?.continuation
        }
        waiter?.resume(returning: false)
    }
}
