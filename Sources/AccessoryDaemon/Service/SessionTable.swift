import AccessoryCore
import AccessoryPlatform
import AccessoryWire

/// The open sessions by number, and which of them a call may use.
final class SessionTable {
    private var sessions: [UInt64: ServiceSession] = [:]
    private var nextNumber: UInt64 = 1

    /// The sessions open now, oldest first.
    var open: [ServiceSession] { sessions.values.sorted { $0.number < $1.number } }

    subscript(number: UInt64) -> ServiceSession? { sessions[number] }

    func add(app: AppID, owner: String, persistent: Bool, now: MonotonicInstant) -> ServiceSession {
        let session = ServiceSession(number: nextNumber, app: app, owner: owner, persistent: persistent, now: now)
        nextNumber += 1
        sessions[session.number] = session
        return session
    }

    func remove(_ session: ServiceSession) { sessions.removeValue(forKey: session.number) }

    func count(of app: AppID) -> Int { sessions.values.filter { $0.app == app }.count }

    /// The connections of `app`'s active sessions: where its signals go.
    func owners(of app: AppID) -> Set<String> {
        Set(open.filter { $0.app == app && $0.state == .active }.map(\.owner))
    }

    /// Runs `body` with the session at `call`'s path if its sender may use
    /// it: its own connection, or (persistent sessions) any connection of
    /// its app; nil to `body` otherwise.
    func withSession(_ call: BusMessage, callers: CallerResolver, _ body: @escaping (ServiceSession?) -> BusConnection.MethodOutcome?)
        -> BusConnection.MethodOutcome? {
        guard let path = call.path, let number = BusNames.session(at: path),
            let session = sessions[number], let sender = call.sender
        else { return body(nil) }
        if session.owner == sender { return body(session) }
        guard session.persistent else { return body(nil) }
        return callers.withCaller(call) { [weak self] caller in
            guard case .success(let caller) = caller, caller.manifest?.app == session.app,
                self?.sessions[number] === session else { return body(nil) }
            return body(session)
        }
    }
}
