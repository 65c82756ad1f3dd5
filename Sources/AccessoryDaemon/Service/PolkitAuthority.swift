import AccessoryPlatform

/// Asks polkit whether a bus caller may administer accessoryd (the action
/// `org.accessoryagent.administer`, in the policy file the package installs),
/// for callers who are neither root nor in the administrator group: a
/// Cockpit session acting as its user, say. Asked without waiting (the loop
/// serves everyone else meanwhile) and without user interaction: nobody can
/// type a password into accessoryd, so a rule of the administrator's decides.
/// Not remembered: a rule changed or a session that went inactive counts from
/// the next call on.
final class PolkitAuthority {
    static let action = "org.accessoryagent.administer"
    static let destination = "org.freedesktop.PolicyKit1"

    enum Answer: Equatable {
        case allowed
        case refused
        /// polkit is not there or did not answer: refused, and the reason logged by the caller.
        case unavailable(String)
    }

    private let connection: BusConnection
    let timeout: Duration
    /// Checks in flight at most: past it a caller is refused at once, so a
    /// caller calling Admin1 in a loop cannot pile up questions to polkit.
    let capacity: Int
    private(set) var outstanding = 0
    /// Why polkit last could not answer: a standing problem (polkitd not
    /// installed, the action's owner not accessoryd's user) is logged once.
    private var lastProblem: String?

    /// Whether `why` differs from the last problem reported (and remembers it).
    func isNewProblem(_ why: String) -> Bool {
        defer { lastProblem = why }
        return why != lastProblem
    }

    init(connection: BusConnection, timeout: Duration = .seconds(25), capacity: Int = 64) {
        self.connection = connection
        self.timeout = timeout
        self.capacity = capacity
    }

    /// Calls `then` on the loop with polkit's answer for the connection `sender`.
    func check(sender: String, _ then: @escaping (Answer) -> Void) {
        guard outstanding < capacity else {
            return then(.unavailable("\(capacity) polkit checks are already waiting for an answer"))
        }
        outstanding += 1
        do throws(BusError) {
            try connection.callAsync(
                destination: Self.destination, path: "/org/freedesktop/PolicyKit1/Authority",
                interface: "org.freedesktop.PolicyKit1.Authority", member: "CheckAuthorization", timeout: timeout,
                { call in
                    // CheckAuthorization((sa{sv}) subject, s action, a{ss} details, u flags, s cancellation)
                    call.container("r", "sa{sv}") { subject in
                        subject.append("system-bus-name")
                        subject.container("a", "{sv}") { details in
                            details.container("e", "sv") { $0.append("name").append(variant: .string(sender)) }
                        }
                    }
                    call.append(Self.action).append(pairs: []).append(UInt32(0)).append("")
                }
            ) { [weak self] result in
                self?.outstanding -= 1
                then(Self.answer(result))
            }
        } catch {
            outstanding -= 1
            then(.unavailable("cannot ask polkit: \(error.message)"))
        }
    }

    /// `(bba{ss})`: is_authorized, is_challenge, details. A challenge (the
    /// action's default, an administrator's password) is a refusal here.
    static func answer(_ result: Result<BusMessage, BusError>) -> Answer {
        switch result {
        case .failure(let error):
            return .unavailable("polkit answered \(error.name): \(error.message)")
        case .success(let reply):
            var authorized = false
            do throws(BusError) {
                try reply.readContainer("r", "bba{ss}") { () throws(BusError) in
                    // The details that follow are not needed: left unread.
                    authorized = try reply.readBool()
                }
            } catch {
                return .unavailable("polkit's answer did not read as (bba{ss}): \(error.message)")
            }
            return authorized ? .allowed : .refused
        }
    }
}
