import AccessoryCore
import AccessoryWire

/// One app's session as the service keeps it (the object behind
/// `Session1`; the app's side is AccessorySetup's `AccessorySession`), as
/// `ASAccessorySession`: opened by a caller on the bus, activated, and dead for good once invalidated (by the app, or when
/// its caller leaves the bus).
public final class ServiceSession {
    public enum State: String, Sendable {
        case new, active, invalidated
    }

    /// An event kept for `TakeEvents` (persistent sessions).
    public struct QueuedEvent: Sendable {
        public var type: AccessoryEventType
        public var details: [(key: String, value: String)]
    }

    public let number: UInt64
    public let app: AppID
    /// The unique bus name of the connection that opened it: for an ordinary
    /// session the only one that may use it, and where its signals go.
    public private(set) var owner: String
    /// Usable by any connection of the same app, for scripts and busctl.
    public let persistent: Bool
    public private(set) var state: State = .new
    /// When it was last called (persistent sessions expire when idle).
    var lastCall: MonotonicInstant
    private(set) var queue: [QueuedEvent] = []
    /// Bluetooth channels handed to this session (the broker's ids).
    var channels: Set<UInt64> = []
    /// The hotspot join this session holds, if any.
    var hotspot: JoinedHotspot?
    static let queueLimit = 256

    init(number: UInt64, app: AppID, owner: String, persistent: Bool = false, now: MonotonicInstant) {
        self.number = number
        self.app = app
        self.owner = owner
        self.persistent = persistent
        lastCall = now
    }

    public var path: String { BusNames.path(ofSession: number) }

    /// Whose hotspot a session joined, and on which interface: removing that
    /// accessory ends this join and no other.
    struct JoinedHotspot {
        let accessory: AccessoryID
        let interface: String
    }

    /// `activate`: from new to active; again is harmless; after invalidation, `invalidated`.
    func activate() throws(AccessorySetupError) {
        try checkAlive()
        state = .active
    }

    func checkAlive() throws(AccessorySetupError) {
        guard state != .invalidated else { throw AccessorySetupError(.invalidated, reason: .message("the session was invalidated")) }
    }

    func invalidate() { state = .invalidated }

    /// A persistent session's signals follow whoever called it last.
    func calledBy(_ sender: String, at now: MonotonicInstant) {
        lastCall = now
        if persistent { owner = sender }
    }

    func enqueue(_ type: AccessoryEventType, _ details: [(key: String, value: String)]) {
        guard persistent else { return }
        if queue.count == Self.queueLimit { queue.removeFirst() }
        queue.append(QueuedEvent(type: type, details: details))
    }

    func takeEvents() -> [QueuedEvent] {
        defer { queue = [] }
        return queue
    }
}
