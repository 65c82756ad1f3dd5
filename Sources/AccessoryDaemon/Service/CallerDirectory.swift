import AccessoryCore
import AccessoryPlatform

/// Who each caller is, asked of the bus daemon without waiting for it:
/// one `GetConnectionCredentials` per connection (uid, groups, pid, whose
/// cgroup names its unit), sent asynchronously and remembered until the
/// connection leaves the bus. A bus daemon slow to answer delays only the
/// calls of the connection being asked about; the loop serves everyone
/// else meanwhile. User names come from NSS once per uid and are
/// remembered (bounded, forgotten on reload), so a slow NSS costs the
/// loop at most one lookup per user, not one per call.
final class CallerDirectory {
    typealias Answer = Result<CallerCredentials, BusError>

    private let connection: BusConnection
    /// Who answers `GetConnectionCredentials`: the bus daemon.
    let busDaemon = "org.freedesktop.DBus"
    /// Connections known, oldest first for eviction past `capacity`.
    private var known: [String: CallerCredentials] = [:]
    private var order: [String] = []
    /// Calls waiting for a connection's credentials, in arrival order.
    private var waiting: [String: [(Answer) -> Void]] = [:]
    private var userNames: [UInt32: String?] = [:]
    let capacity: Int
    /// How long the bus daemon may take before a call is refused.
    let timeout: Duration

    init(connection: BusConnection, capacity: Int = 4096, timeout: Duration = .seconds(25)) {
        self.connection = connection
        self.capacity = capacity
        self.timeout = timeout
    }

    /// The credentials of `sender` if already known: no bus call.
    func known(_ sender: String) -> CallerCredentials? { known[sender] }

    /// How many connections' credentials are being asked for now.
    var outstanding: Int { waiting.count }

    /// Calls `then` with `sender`'s credentials: at once when known, or
    /// when the bus daemon answers (or fails to, within `timeout`).
    func resolve(_ sender: String, _ then: @escaping (Answer) -> Void) {
        if let credentials = known[sender] { return then(.success(credentials)) }
        if waiting[sender] != nil {
            waiting[sender]?.append(then)
            return
        }
        waiting[sender] = [then]
        do throws(BusError) {
            try connection.callAsync(destination: busDaemon, path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                     member: "GetConnectionCredentials", timeout: timeout, { _ = $0.append(sender) }) { [weak self] result in
                self?.answered(sender, result)
            }
        } catch {
            answered(sender, .failure(error))
        }
    }

    private func answered(_ sender: String, _ result: Result<BusMessage, BusError>) {
        let answer: Answer
        switch result {
        case .success(let reply):
            do throws(BusError) {
                let found = try reply.connectionCredentials()
                guard let uid = found.uid else { throw BusError(name: "org.freedesktop.DBus.Error.AccessDenied", message: "the bus did not say who the caller is") }
                let credentials = CallerCredentials(uid: uid, userName: userName(uid), unit: found.pid.flatMap(CallerCredentials.unit(ofProcess:)),
                                                    groups: found.groups ?? [])
                remember(sender, credentials)
                answer = .success(credentials)
            } catch {
                answer = .failure(error)
            }
        case .failure(let error):
            answer = .failure(BusError(name: "org.freedesktop.DBus.Error.AccessDenied",
                                       message: "cannot tell who the caller is: the bus daemon answered \(error.name): \(error.message)"))
        }
        for then in waiting.removeValue(forKey: sender) ?? [] { then(answer) }
    }

    private func remember(_ sender: String, _ credentials: CallerCredentials) {
        if known.updateValue(credentials, forKey: sender) == nil { order.append(sender) }
        while order.count > capacity { known.removeValue(forKey: order.removeFirst()) }
    }

    /// A connection left the bus: its unique name is never used again.
    func forget(_ sender: String) {
        guard known.removeValue(forKey: sender) != nil else { return }
        order.removeAll { $0 == sender }
    }

    /// NSS once per uid, then remembered (at most `capacity` users).
    private func userName(_ uid: UInt32) -> String? {
        if let name = userNames[uid] { return name }
        let name = UnixUser.name(of: uid)
        if userNames.count >= capacity { userNames.removeAll() }
        userNames[uid] = name
        return name
    }

    /// On reload: users renamed since are looked up again.
    func forgetUserNames() { userNames.removeAll() }
}
