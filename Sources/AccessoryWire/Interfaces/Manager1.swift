/// `org.accessoryagent.Manager1` at `/org/accessoryagent`: opening sessions.
public enum Manager1 {
    public static let openSession = BusMethod("OpenSession", out: [BusArgument("session", .objectPath)])
    public static let openPersistentSession = BusMethod("OpenPersistentSession", out: [BusArgument("session", .objectPath)])

    /// Ends every persistent session of the calling app at once (a script
    /// that leaked them need not wait out their idle limit).
    public static let endPersistentSessions = BusMethod("EndPersistentSessions", out: [BusArgument("ended", .uint32)])

    public static let interface = BusInterface(BusNames.manager, methods: [openSession, openPersistentSession, endPersistentSessions])
}
