import AccessoryCore

/// One app's session, as `ASAccessorySession`: opened by a caller on the
/// bus, activated, and dead for good once invalidated (by the app, or when
/// its caller leaves the bus).
public final class AccessorySession {
    public enum State: String, Sendable {
        case new, active, invalidated
    }

    public let number: UInt64
    public let app: AppID
    /// The unique bus name of the connection that opened it: only it may use it.
    public let owner: String
    public private(set) var state: State = .new

    init(number: UInt64, app: AppID, owner: String) {
        self.number = number
        self.app = app
        self.owner = owner
    }

    public var path: String { "\(BusNames.sessions)/\(number)" }

    /// `activate`: from new to active; again is harmless; after invalidation, `invalidated`.
    func activate() throws(AccessorySetupError) {
        guard state != .invalidated else { throw AccessorySetupError(.invalidated, reason: .message("the session was invalidated")) }
        state = .active
    }

    func invalidate() { state = .invalidated }
}
