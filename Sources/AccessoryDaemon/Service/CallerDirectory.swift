import AccessoryCore
import AccessoryPlatform

/// Who each caller is, asked of the bus daemon without waiting for it:
/// one `GetConnectionCredentials` per connection (uid, groups, pid), then
/// the pid's systemd unit (`CallerUnitLookup`: /proc or systemd, without
/// waiting), remembered until the connection leaves the bus. A bus daemon slow to answer delays only the
/// calls of the connection being asked about; the loop serves everyone
/// else meanwhile. User names come from the name service once per uid, on
/// a worker (`UserNameLookup`), and are remembered (bounded, forgotten on
/// reload): a slow or hung name service delays only the callers of the uid
/// being looked up, never the loop.
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
    let userNames: UserNameLookup
    let units: CallerUnitLookup
    let capacity: Int
    /// How long the bus daemon may take before a call is refused.
    let timeout: Duration

    init(connection: BusConnection, userNames: UserNameLookup, units: CallerUnitLookup, capacity: Int = 4096,
         timeout: Duration = .seconds(25)) {
        self.connection = connection
        self.userNames = userNames
        self.units = units
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
        switch result {
        case .success(let reply):
            do throws(BusError) {
                let found = try reply.connectionCredentials()
                guard let uid = found.uid else { throw BusError(name: "org.freedesktop.DBus.Error.AccessDenied", message: "the bus did not say who the caller is") }
                let groups = found.groups ?? []
                // The unit (from /proc or systemd), then the user's name (on a worker): the calls wait, nobody else does.
                units.resolve(pid: found.pid) { [weak self] unit in
                    guard let self else { return }
                    switch unit {
                    case .success(let unit): named(sender, uid: uid, unit: unit, groups: groups)
                    case .failure(let error): finish(sender, .failure(error))
                    }
                }
            } catch {
                finish(sender, .failure(error))
            }
        case .failure(let error):
            finish(sender, .failure(BusError(name: "org.freedesktop.DBus.Error.AccessDenied",
                                             message: "cannot tell who the caller is: the bus daemon answered \(error.name): \(error.message)")))
        }
    }

    private func named(_ sender: String, uid: UInt32, unit: CallerUnitLookup.Unit, groups: [UInt32]) {
        userNames.resolve(uid) { [weak self] name in
            guard let self else { return }
            switch name {
            case .success(let name):
                let credentials = CallerCredentials(uid: uid, userName: name, unit: unit.name, groups: groups,
                                                    unitUnknown: unit.unknownBecause)
                remember(sender, credentials)
                finish(sender, .success(credentials))
            case .failure(let error):
                finish(sender, .failure(error))
            }
        }
    }

    private func finish(_ sender: String, _ answer: Answer) {
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

    /// On reload: users renamed since are looked up again.
    func forgetUserNames() { userNames.forget() }
}
