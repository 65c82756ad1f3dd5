/// The picker as a session follows it, from `showPicker` to the agent's
/// `PickerDidDismiss`, so that the app may stop waiting (its task cancelled)
/// at once, while the agent still has the picker open: the session then
/// withdraws it (`DismissPicker`), but the picker may have ended meanwhile
/// for another reason, and either way its dismissal, arriving later, must not
/// end the next `showPicker` instead.
///
/// Pure state, kept under the session's lock; `Waiter` is the continuation of
/// the `showPicker` call that waits. Every method hands a waiter out at most
/// once, so each is resumed exactly once.
struct PickerWait<Waiter> {
    enum Start {
        /// Make the `ShowPicker` call.
        case call
        /// This session already waits on a picker.
        case alreadyActive
        /// The app's task was cancelled before the call was made: no call.
        case cancelled
    }

    private enum Stage {
        /// `ShowPicker` is on its way to the agent.
        case calling
        /// The agent took it; its dismissal ends the wait.
        case open
    }

    private var current: (token: UInt64, waiter: Waiter, stage: Stage)?
    private var lastToken: UInt64 = 0
    private var lastStarted: UInt64 = 0
    /// Cancelled before their start (at most the calls posted and not yet run).
    private var cancelledEarly: Set<UInt64> = []
    /// The app stopped waiting while this call was under way: its outcome is nobody's.
    private var abandonedCall: UInt64?
    /// A picker the app stopped waiting for is open at the agent.
    private var abandonedOpen = false

    /// A token for one `showPicker` call.
    mutating func newToken() -> UInt64 {
        lastToken += 1
        return lastToken
    }

    /// On the bus thread, before the call.
    mutating func start(_ token: UInt64, waiter: Waiter) -> Start {
        lastStarted = max(lastStarted, token)
        if cancelledEarly.remove(token) != nil { return .cancelled }
        guard current == nil else { return .alreadyActive }
        current = (token, waiter, .calling)
        return .call
    }

    /// The agent answered `ShowPicker`: with a refusal, the waiter to resume with it.
    mutating func answered(_ token: UInt64, refused: Bool) -> Waiter? {
        if abandonedCall == token {
            abandonedCall = nil
            abandonedOpen = !refused
            return nil
        }
        guard let waiting = current, waiting.token == token else { return nil }
        if refused {
            current = nil
            return waiting.waiter
        }
        current?.stage = .open
        return nil
    }

    /// The app's task was cancelled: the waiter to resume at once, if it still waits.
    mutating func cancel(_ token: UInt64) -> Waiter? {
        guard let waiting = current, waiting.token == token else {
            if token > lastStarted { cancelledEarly.insert(token) }
            return nil
        }
        current = nil
        switch waiting.stage {
        case .calling: abandonedCall = token
        case .open: abandonedOpen = true
        }
        return waiting.waiter
    }

    /// On the bus thread, after a cancellation: whether `DismissPicker` would
    /// end the picker the app stopped waiting for and no other. Not while
    /// another `showPicker` is under way: the agent took that one, so the
    /// abandoned picker has ended there already (one picker per session).
    var withdrawsAbandoned: Bool { abandonedOpen && current == nil }

    /// `PickerDidDismiss`: the waiter it ends. A picker the app stopped
    /// waiting for is dismissed before any later one can be: the agent keeps
    /// one picker per session.
    mutating func dismissed() -> Waiter? {
        if abandonedOpen {
            abandonedOpen = false
            return nil
        }
        guard let waiting = current, waiting.stage == .open else { return nil }
        current = nil
        return waiting.waiter
    }

    /// The session ended: the waiter, if one waits.
    mutating func end() -> Waiter? {
        defer {
            current = nil
            abandonedCall = nil
            abandonedOpen = false
        }
        return current?.waiter
    }
}
