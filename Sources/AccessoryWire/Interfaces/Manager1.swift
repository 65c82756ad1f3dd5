/// `org.accessoryagent.Manager1` at `/org/accessoryagent`: opening sessions.
public enum Manager1 {
    public static let openSession = BusMethod("OpenSession", out: [BusArgument("session", .objectPath)])
    public static let openPersistentSession = BusMethod("OpenPersistentSession", out: [BusArgument("session", .objectPath)])

    /// Ends every persistent session of the calling app at once (a script
    /// that leaked them need not wait out their idle limit).
    public static let endPersistentSessions = BusMethod("EndPersistentSessions", out: [BusArgument("ended", .uint32)])

    /// The interface's methods, listed once: introspection shows them in
    /// this order, and the daemon's handler switches over them with no
    /// default, so a method added here does not build until it is handled.
    public enum Method: CaseIterable, Sendable {
        case openSession, openPersistentSession, endPersistentSessions

        public var declaration: BusMethod {
            switch self {
            case .openSession: Manager1.openSession
            case .openPersistentSession: Manager1.openPersistentSession
            case .endPersistentSessions: Manager1.endPersistentSessions
            }
        }

        /// The method a call names; nil for any other member.
        public init?(member: String?) {
            guard let found = Self.allCases.first(where: { $0.declaration.name == member }) else { return nil }
            self = found
        }
    }

    public static let interface = BusInterface(BusNames.manager, methods: Method.allCases.map(\.declaration))
}
