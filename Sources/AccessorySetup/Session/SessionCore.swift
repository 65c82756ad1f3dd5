import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Synchronization

/// What an `AccessorySession` and its bus thread share: the session's phase,
/// the accessories it knows, the picker an app is waiting on, and the
/// streams. Guarded by one lock, held only to read or swap values, never
/// across a call.
final class SessionCore: Sendable {
    /// A `showPicker` call waiting for its outcome: nil after a pick, else the error.
    typealias PickerWaiter = CheckedContinuation<AccessorySetupError?, Never>

    enum Phase {
        case new
        case activating(BusThread)
        case active(BusThread, path: String)
        /// accessoryd left the bus (a restart, an upgrade) and took the
        /// session with it; a new one is opened when it is back.
        case restarting(BusThread)
        /// Invalidated, by the app or by the agent: for good.
        case ended
    }

    struct State {
        var phase = Phase.new
        var accessories: [Accessory] = []
        /// `showPicker` waiting for the picker to be dismissed.
        var picker = PickerWait<PickerWaiter>()
        /// Reopened after a restart: the new session's `Activated` is told
        /// to the app as `serviceRestarted`, not as a second `activated`.
        var reactivated = false
    }

    let state = Mutex(State())
    let events: AsyncStream<AccessoryEvent>.Continuation
    let hotspotLeaves: AsyncStream<HotspotLeft>.Continuation
    let presenceChanges: AsyncStream<AccessoryPresence>.Continuation
    let advertisements: AsyncStream<AccessoryAdvertisement>.Continuation
    let busAddress: String?

    init(busAddress: String?, events: AsyncStream<AccessoryEvent>.Continuation,
         hotspotLeaves: AsyncStream<HotspotLeft>.Continuation,
         presenceChanges: AsyncStream<AccessoryPresence>.Continuation,
         advertisements: AsyncStream<AccessoryAdvertisement>.Continuation) {
        self.busAddress = busAddress
        self.events = events
        self.hotspotLeaves = hotspotLeaves
        self.presenceChanges = presenceChanges
        self.advertisements = advertisements
    }

    // MARK: Phases

    func beginActivation() throws(AccessorySetupError) -> BusThread {
        try state.withLock { state throws(AccessorySetupError) in
            switch state.phase {
            case .new: break
            case .activating, .active, .restarting:
                throw AccessorySetupError(.invalidRequest, reason: .message("the session is already activated"))
            case .ended: throw AccessorySetupError(.invalidated)
            }
            let thread = try BusThread()
            state.phase = .activating(thread)
            return thread
        }
    }

    /// On the bus thread, as the last step of activation: the accessories are
    /// known before any signal after `Activate` is delivered (signals are jobs
    /// that run after this one), so presence and events about them apply.
    func adoptActivated(_ accessories: [Accessory], thread: BusThread) {
        state.withLock { state in
            switch state.phase {
            case .activating(let current), .restarting(let current):
                if current === thread { state.accessories = accessories }
            default: break
            }
        }
    }

    func finishActivation(_ thread: BusThread, path: String) throws(AccessorySetupError) {
        try state.withLock { state throws(AccessorySetupError) in
            guard case .activating(let current) = state.phase, current === thread else {
                // Invalidated meanwhile, which stopped the thread.
                throw AccessorySetupError(.invalidated)
            }
            state.phase = .active(thread, path: path)
        }
    }

    /// Activation failed: the app may try again (the agent may not be running yet).
    func abandonActivation(_ thread: BusThread) {
        state.withLock { state in
            if case .activating(let current) = state.phase, current === thread { state.phase = .new }
        }
        thread.stop()
    }

    /// The bus thread and session path, for a call that needs an active session.
    func active() throws(AccessorySetupError) -> (thread: BusThread, path: String) {
        try state.withLock { state throws(AccessorySetupError) in
            switch state.phase {
            case .active(let thread, let path): return (thread, path)
            case .new, .activating:
                throw AccessorySetupError(.invalidRequest, reason: .message("the session is not activated"))
            case .restarting:
                throw AccessorySetupError(.invalidRequest, reason: .message(Self.restartingReason))
            case .ended: throw AccessorySetupError(.invalidated)
            }
        }
    }

    /// What ending the session leaves to release.
    struct Ending {
        var thread: BusThread?
        /// The session's path, when the agent had opened it.
        var path: String?
        var waiter: PickerWaiter?
    }

    /// Marks the session ended, at once for every later call; nil when it
    /// had ended already. `finish` completes the ending.
    func markEnded() -> Ending? {
        state.withLock { state -> Ending? in
            var ending = Ending()
            switch state.phase {
            case .ended: return nil
            case .new: break
            case .activating(let thread), .restarting(let thread): ending.thread = thread
            case .active(let thread, let path): (ending.thread, ending.path) = (thread, path)
            }
            state.phase = .ended
            ending.waiter = state.picker.end()
            return ending
        }
    }

    /// A waiting `showPicker` gets `invalidated`; the stream ends with the
    /// `invalidated` event; the thread stops, which closes the connection.
    func finish(_ ending: Ending, error: AccessorySetupError? = nil) {
        ending.waiter?.resume(returning: AccessorySetupError(.invalidated))
        events.yield(AccessoryEvent(.invalidated, error: error))
        events.finish()
        hotspotLeaves.finish()
        presenceChanges.finish()
        advertisements.finish()
        ending.thread?.stop()
    }

    /// Ends the session once, whoever ends it: the agent's `Invalidated`, the
    /// agent leaving the bus, the session being released.
    func end(error: AccessorySetupError? = nil) {
        guard let ending = markEnded() else { return }
        finish(ending, error: error)
    }

    // MARK: A restart of accessoryd

    static let restartingReason = "accessoryd restarted; the session is activated again once it is back"

    /// On the bus thread: accessoryd is gone, and its session with it. The
    /// accessories stay known; a `showPicker` waiting gets the error. Nothing
    /// when the session was not active (already restarting, or ended).
    func serviceLeft(_ thread: BusThread) {
        let waiter: PickerWaiter? = state.withLock { state in
            guard case .active(let current, _) = state.phase, current === thread else { return nil }
            state.phase = .restarting(thread)
            return state.picker.end()
        }
        waiter?.resume(returning: AccessorySetupError(.unknown, reason: .message("accessoryd restarted; the picker is gone")))
    }

    /// Whether the session waits for accessoryd to come back.
    func isRestarting(_ thread: BusThread) -> Bool {
        state.withLock { state in
            if case .restarting(let current) = state.phase { return current === thread }
            return false
        }
    }

    /// On the bus thread: a new session was opened and activated with the
    /// new accessoryd (its accessories adopted already). Its `Activated`
    /// signal, a job after this one, becomes the `serviceRestarted` event.
    func finishRestart(_ thread: BusThread, path: String) {
        state.withLock { state in
            guard case .restarting(let current) = state.phase, current === thread else { return }
            state.phase = .active(thread, path: path)
            state.reactivated = true
        }
    }

    // MARK: The picker

    func newPickerToken() -> UInt64 { state.withLock { $0.picker.newToken() } }

    func startPicker(_ token: UInt64, waiter: PickerWaiter) -> PickerWait<PickerWaiter>.Start {
        state.withLock { $0.picker.start(token, waiter: waiter) }
    }

    func pickerAnswered(_ token: UInt64, refused: Bool) -> PickerWaiter? {
        state.withLock { $0.picker.answered(token, refused: refused) }
    }

    func cancelPicker(_ token: UInt64) -> PickerWaiter? { state.withLock { $0.picker.cancel(token) } }

    var withdrawsAbandonedPicker: Bool { state.withLock { $0.picker.withdrawsAbandoned } }

    // MARK: Signals, on the bus thread

    /// Turns a signal into an event: reads the accessory it names, keeps
    /// `accessories` current, then hands the event to the app.
    func deliver(_ signal: SessionSignal, context: BusThread.Context) {
        // A signal that arrives while activation is still finishing is the
        // session's; one left over from an abandoned activation is not.
        guard state.withLock({ $0.phase.takesSignals }) else { return }
        if case .invalidated = signal {
            end()
            return
        }
        var accessory: Accessory?
        var failure: AccessorySetupError?
        if let path = signal.accessoryPath, let id = BusNames.accessory(at: path) {
            let known = state.withLock { $0.accessories.first { $0.id == id } }
            if case .accessoryRemoved = signal {
                // The object is gone already; what the session knew of it is all there is.
                accessory = known ?? Accessory(id: id, displayName: "", state: .unauthorized)
            } else {
                do {
                    accessory = try ServiceCalls.accessory(context, path: path)
                } catch {
                    accessory = known
                    failure = error
                    if case .pickerSetupPairing = signal, known == nil {
                        // Being paired, not granted yet: its object comes with AccessoryAdded.
                        accessory = Accessory(id: id, displayName: "", state: .unauthorized)
                        failure = nil
                    }
                }
            }
        }
        if let accessory { remember(accessory, after: signal) }
        var event = signal.event(accessory: accessory)
        if case .activated = signal, state.withLock({ state in defer { state.reactivated = false }; return state.reactivated }) {
            event.eventType = .serviceRestarted
        }
        if event.error == nil { event.error = failure }
        events.yield(event)
        if case .pickerDidDismiss = signal { state.withLock { $0.picker.dismissed() }?.resume(returning: event.error) }
    }

    private func remember(_ accessory: Accessory, after signal: SessionSignal) {
        state.withLock { state in
            let index = state.accessories.firstIndex { $0.id == accessory.id }
            switch (signal, index) {
            case (.accessoryRemoved, let index?): state.accessories.remove(at: index)
            case (.accessoryRemoved, nil): break
            case (_, let index?): state.accessories[index] = accessory
            case (.accessoryAdded, nil), (.accessoryChanged, nil): state.accessories.append(accessory)
            default: break
            }
        }
    }
}
