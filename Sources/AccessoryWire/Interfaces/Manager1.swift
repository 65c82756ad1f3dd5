/// `org.accessoryagent.Manager1` at `/org/accessoryagent`: opening sessions.
public enum Manager1 {
    public static let openSession = BusMethod("OpenSession", out: [BusArgument("session", .objectPath)])
    public static let openPersistentSession = BusMethod("OpenPersistentSession", out: [BusArgument("session", .objectPath)])

    public static let interface = BusInterface(BusNames.manager, methods: [openSession, openPersistentSession])
}
