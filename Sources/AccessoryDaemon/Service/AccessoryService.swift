import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Logging

/// accessoryd's D-Bus API (see the README's "D-Bus API"), wired: one
/// handler per interface, a router for the authorization center's notices,
/// and each object path sent to its handlers. It keeps no state of its own;
/// what it offers beyond `init` is the daemon's and the tests' view of the handlers.
/// Every caller is identified from the bus's credentials; whatever belongs
/// to another app does not exist, as far as a caller can tell.
public final class AccessoryService {
    public let center: AuthorizationCenter
    /// Who each connection is, asked of the bus daemon without waiting.
    let callers: CallerDirectory
    private let connection: BusConnection
    private let replies: ServiceReplies
    private let sessions: SessionTable
    private let budget: AppBudget
    private let manager: ManagerHandler
    private let session: SessionHandler
    private let accessory: AccessoryHandler
    private let objectManager: ObjectManagerHandler
    private let admin: AdminHandler
    private let channelHandler: ChannelHandler
    private let hotspotHandler: HotspotHandler
    private let router: NoticeRouter

    public init(
        connection: BusConnection, logger: Logger, apps: @escaping () -> AppManifestCatalog,
        manifestDirectories: String = AppCatalogLoader().directoriesDescription,
        administratorGroup: String = AdministratorGroup.defaultName,
        center: AuthorizationCenter, loop: EventLoop, scheduler: (any Scheduler)? = nil,
        lookUpUserName: @escaping @Sendable (UInt32) -> String? = UnixUser.name(of:),
        readUnitFromProc: @escaping (UInt32) -> String? = CallerCredentials.unit(ofProcess:)
    ) throws(SystemError) {
        let scheduler = scheduler ?? loop
        let sessions = SessionTable()
        let callers = CallerDirectory(connection: connection, userNames: try UserNameLookup(loop: loop, scheduler: scheduler, lookUp: lookUpUserName),
                                      units: CallerUnitLookup(connection: connection, scheduler: scheduler, readProc: readUnitFromProc))
        let resolver = CallerResolver(directory: callers, connection: connection, apps: apps)
        let budget = AppBudget(scheduler: scheduler, logger: logger)
        let signals = ServiceSignals(connection: connection, sessions: sessions, center: center)
        let channels = ChannelHandler(connection: connection, center: center, logger: logger)
        let hotspots = HotspotHandler(connection: connection, center: center, signals: signals, logger: logger)
        let lifetime = SessionLifetime(sessions: sessions, center: center, signals: signals, channels: channels,
                                       hotspots: hotspots, scheduler: scheduler, logger: logger)
        self.connection = connection
        self.center = center
        self.callers = callers
        self.sessions = sessions
        self.budget = budget
        channelHandler = channels
        hotspotHandler = hotspots
        replies = ServiceReplies(connection: connection)
        manager = ManagerHandler(connection: connection, callers: resolver, sessions: sessions, lifetime: lifetime,
                                 budget: budget, scheduler: scheduler, logger: logger, manifestDirectories: manifestDirectories)
        session = SessionHandler(connection: connection, callers: resolver, sessions: sessions, lifetime: lifetime,
                                 signals: signals, budget: budget, center: center, channels: channels,
                                 hotspots: hotspots, apps: apps, scheduler: scheduler)
        accessory = AccessoryHandler(connection: connection, callers: resolver, center: center)
        objectManager = ObjectManagerHandler(connection: connection, callers: resolver, sessions: sessions, center: center)
        admin = AdminHandler(connection: connection, callers: resolver, center: center, apps: apps, scheduler: scheduler,
                             administratorGroup: administratorGroup, logger: logger)
        router = NoticeRouter(sessions: sessions, signals: signals, channels: channels, hotspots: hotspots,
                              agent: PickerAgentCalls(connection: connection, center: center, logger: logger))
        center.notify = { [weak self] notice in self?.router.deliver(notice) }
        // Before any call is served, so no caller can leave unseen.
        try connection.watchDepartures()
        connection.anyPeerLeft = { [weak callers] sender in callers?.forget(sender) }
        try connection.serve(path: BusNames.root) { [unowned self] call, _ in root(call) }
        try connection.serve(path: BusNames.sessions, subtree: true) { [unowned self] call, _ in session.handle(call) }
        try connection.serve(path: BusNames.accessories, subtree: true) { [unowned self] call, _ in accessory.handle(call) }
    }

    /// `/org/accessoryagent`: Manager1, Admin1 and the object manager, by interface.
    private func root(_ call: BusMessage) -> BusConnection.MethodOutcome? {
        guard call.path == BusNames.root else { return nil }
        if let refused = ServiceReplies.wrongArgumentTypes(call, on: BusObjects.root) { return refused }
        switch call.interface {
        case BusNames.introspectable: return replies.reply(call) { $0.append(IntrospectionXML.root) }
        case BusNames.manager: return manager.handle(call)
        case BusNames.admin: return admin.handle(call)
        case BusNames.objectManager where call.member == FreedesktopInterfaces.getManagedObjects.name:
            return objectManager.managedObjects(call)
        // The root's interfaces have no properties: GetAll answers {}, Get InvalidArgs, as on any object.
        case BusNames.properties: return replies.properties(call, interfaces: BusObjects.root.map(\.name), [])
        default: return nil
        }
    }

    /// The sessions open now (for the waker, status and tests).
    public var openSessions: [ServiceSession] { sessions.open }

    /// Connects Bluetooth LE channels for apps; nil without Bluetooth.
    public var channels: ChannelBroker? {
        get { channelHandler.broker }
        set { channelHandler.broker = newValue }
    }

    /// Joins accessories' hotspots for apps; nil without Wi-Fi.
    public var hotspots: HotspotJoiner? {
        get { hotspotHandler.joiner }
        set { hotspotHandler.joiner = newValue }
    }

    /// Which interface joins use (`[Wi-Fi] JoinInterface=` or the first one).
    public var joinInterfaceChoice: () -> String? {
        get { hotspotHandler.joinInterfaceChoice }
        set { hotspotHandler.joinInterfaceChoice = newValue }
    }

    /// What one app may make the service read or hold (`[Limits]`); set at start and on reload.
    public var limits: AppLimits {
        get { budget.limits }
        set { budget.limits = newValue }
    }

    /// How one app's repeated lines are folded (a test sets its own window).
    var logFold: LogFold {
        get { budget.logFold }
        set { budget.logFold = newValue }
    }

    /// Who besides root may use Admin1.
    public var administrators: AdministratorGroup { admin.administrators }

    /// Looks the administrator group up again (on SIGHUP), and the callers' user names with it.
    public func resolveAdministratorGroup() {
        admin.resolveAdministratorGroup()
        callers.forgetUserNames()
    }
}
