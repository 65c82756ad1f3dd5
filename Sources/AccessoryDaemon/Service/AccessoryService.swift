import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Logging

/// accessoryd's D-Bus API (see the README's "D-Bus API"): an adapter that
/// identifies each caller from the bus's credentials, turns the calls into
/// inputs of the authorization center (made and owned by the daemon's
/// wiring), and turns its notices into signals and replies for exactly the
/// peers entitled to them. Whatever belongs to another app does
/// not exist, as far as a caller can tell.
public final class AccessoryService {
    let connection: BusConnection
    let apps: () -> AppManifestCatalog
    /// Where the manifests come from, named when a caller has none.
    let manifestDirectories: String
    let logger: Logger
    /// Where the service reads the time and arms its sweeps: the loop's, or a test's manual one.
    let scheduler: any Scheduler
    var clock: any MonotonicClock { scheduler }
    public let center: AuthorizationCenter
    var sessions: [UInt64: ServiceSession] = [:]
    /// Who each connection is, asked of the bus daemon without waiting.
    let callers: CallerDirectory
    /// Connects Bluetooth LE channels for apps; nil without Bluetooth.
    public var channels: ChannelBroker?
    /// Joins accessories' hotspots for apps; nil without Wi-Fi.
    public var hotspots: HotspotJoiner?
    /// Which interface joins use (`[Wi-Fi] JoinInterface=` or the first one).
    public var joinInterfaceChoice: () -> String? = { nil }
    var nextSession: UInt64 = 1
    /// What one app may make the service read or hold (`[Limits]`); set at
    /// start and on reload.
    public var limits = AppLimits()
    /// Apps refused a session since they last opened one (logged once).
    var appsAtSessionLimit: Set<AppID> = []
    /// How fast each app has asked lately (`RequestsPerMinute`, `RequestBurst`).
    var requestRate = RequestRate(perMinute: AppLimits().requestsPerMinute, burst: AppLimits().requestBurst)
    /// One app's repeated lines, folded (never audit entries).
    var logFold = LogFold()
    var foldReportArmed = false
    /// Persistent sessions end after this long without a call.
    static let persistentIdleLimit = Duration.seconds(600)
    /// Who besides root may use Admin1; looked up at start and on reload
    /// (`resolveAdministratorGroup`), not per call, so a slow NSS never holds up the bus.
    public internal(set) var administrators: AdministratorGroup
    /// Asked about callers who are neither root nor in `administrators`.
    lazy var polkit = PolkitAuthority(connection: connection)

    public init(
        connection: BusConnection, logger: Logger, apps: @escaping () -> AppManifestCatalog,
        manifestDirectories: String = AppCatalogLoader().directoriesDescription,
        administratorGroup: String = AdministratorGroup.defaultName,
        center: AuthorizationCenter, loop: EventLoop, scheduler: (any Scheduler)? = nil,
        lookUpUserName: @escaping @Sendable (UInt32) -> String? = UnixUser.name(of:)
    ) throws(SystemError) {
        self.connection = connection
        self.logger = logger
        self.apps = apps
        self.manifestDirectories = manifestDirectories
        self.scheduler = scheduler ?? loop
        self.administrators = Self.lookUpAdministrators(administratorGroup, logger: logger)
        self.center = center
        self.callers = CallerDirectory(connection: connection, userNames: try UserNameLookup(loop: loop, scheduler: scheduler ?? loop, lookUp: lookUpUserName))
        center.notify = { [weak self] notice in self?.deliver(notice) }
        // Before any call is served, so no caller can leave unseen.
        try connection.watchDepartures()
        connection.anyPeerLeft = { [weak callers] sender in callers?.forget(sender) }
        try connection.serve(path: BusNames.root) { [unowned self] call, _ in handleRoot(call) }
        try connection.serve(path: BusNames.sessions, subtree: true) { [unowned self] call, _ in handleSession(call) }
        try connection.serve(path: BusNames.accessories, subtree: true) { [unowned self] call, _ in handleAccessory(call) }
        self.loop = loop
    }

    weak var loop: EventLoop?
    var sweepArmed = false

    /// The sessions open now (for tests and status).
    public var openSessions: [ServiceSession] { sessions.values.sorted { $0.number < $1.number } }

    // MARK: Routing

    private func handleRoot(_ call: BusMessage) -> BusConnection.MethodOutcome? {
        guard call.path == BusNames.root else { return nil }
        if let refused = wrongArgumentTypes(call, on: BusObjects.root) { return refused }
        switch call.interface {
        case BusNames.introspectable: return reply(call) { $0.append(IntrospectionXML.root) }
        case BusNames.manager: return handleManager(call)
        case BusNames.admin: return handleAdmin(call)
        case BusNames.objectManager where call.member == FreedesktopInterfaces.getManagedObjects.name: return managedObjects(call)
        // The root's interfaces have no properties: GetAll answers {}, Get InvalidArgs, as on any object.
        case BusNames.properties: return properties(call, interfaces: BusObjects.root.map(\.name), [])
        default: return nil
        }
    }

    /// `InvalidArgs` for a call whose signature is not its method's declared
    /// one (AccessoryWire), checked here for every method of every object so
    /// none can forget it; nil for a call that may go on (or is no method declared there).
    func wrongArgumentTypes(_ call: BusMessage, on interfaces: [BusInterface]) -> BusConnection.MethodOutcome? {
        guard let member = call.member,
            let method = interfaces.first(where: { $0.name == call.interface })?.method(member),
            let mismatch = method.argumentMismatch(received: call.signature)
        else { return nil }
        return .error(.invalidArguments(mismatch))
    }

    // MARK: Who is calling

    struct Caller {
        var credentials: CallerCredentials
        var sender: String
        var manifest: AppManifest?
    }

    /// Runs `body` with who called: at once when the connection is known,
    /// otherwise once the bus daemon has said (`CallerDirectory`, without
    /// waiting), answering the call then. The loop never waits for it.
    func withCaller(_ call: BusMessage, _ body: @escaping (Result<Caller, BusError>) -> BusConnection.MethodOutcome?)
        -> BusConnection.MethodOutcome? {
        guard let sender = call.sender else { return body(.failure(.invalidArguments("no sender"))) }
        let apps = self.apps
        func caller(_ answer: CallerDirectory.Answer) -> Result<Caller, BusError> {
            answer.map { Caller(credentials: $0, sender: sender, manifest: apps().manifest(forUser: $0.userName, unit: $0.unit)) }
        }
        if let credentials = callers.known(sender) { return body(caller(.success(credentials))) }
        callers.resolve(sender) { [weak self] answer in
            guard let self else { return }
            connection.finish(call, with: body(caller(answer)))
        }
        return .deferred
    }

    /// Runs `body` with the session at `call`'s path if its sender may use
    /// it: its own connection, or (persistent sessions) any connection of
    /// its app; nil to `body` otherwise.
    func withSession(_ call: BusMessage, _ body: @escaping (ServiceSession?) -> BusConnection.MethodOutcome?)
        -> BusConnection.MethodOutcome? {
        guard let path = call.path, let number = BusNames.session(at: path),
            let session = sessions[number], let sender = call.sender
        else { return body(nil) }
        if session.owner == sender { return body(session) }
        guard session.persistent else { return body(nil) }
        return withCaller(call) { caller in
            guard case .success(let caller) = caller, caller.manifest?.app == session.app,
                self.sessions[number] === session else { return body(nil) }
            return body(session)
        }
    }

    // MARK: Delivering notices

    private func deliver(_ notice: AuthorizationNotice) {
        switch notice {
        case .session(let number, let event):
            if let session = sessions[number], session.state != .invalidated { send(event, to: session) }
        case .app(let app, let event):
            if case .accessoryAdded(let id) = event { accessoryAppeared(id, app: app) }
            // Properties first: a client told AccessoryChanged finds its cache current.
            if case .accessoryChanged(let id) = event { grantChanged(id, app: app) }
            for session in openSessions where session.app == app && session.state == .active { send(event, to: session) }
            if case .accessoryRemoved(let id) = event {
                // Removal revokes every handle the app holds on it.
                channels?.revoke(accessory: id)
                for session in openSessions where session.hotspot?.accessory == id {
                    leaveHotspot(of: session, why: "the accessory was removed")
                }
                accessoryDisappeared(id, app: app)
            }
        case .agent(let event):
            tellAgent(event)
        case .presence(let grant, let present, let rssi):
            propertiesChanged(grant, present: present, rssi: rssi)
        case .advertisement(let grant, let rssi, let data):
            for session in openSessions where session.app == grant.app && session.state == .active {
                try? connection.emitSignal(path: BusNames.path(of: grant.accessory), interface: BusNames.accessory,
                                           member: Accessory1.advertisement.name, destination: session.owner) { signal in
                    signal.append(BusRSSI.encode(rssi)).append(bytes: data)
                }
            }
        }
    }

    private func send(_ event: AuthorizationNotice.SessionEvent, to session: ServiceSession) {
        let type: AccessoryEventType
        var details: [(key: String, value: String)] = []
        var arguments: (BusReply) -> Void = { _ in }
        func accessory(_ id: AccessoryID) {
            let path = BusNames.path(of: id)
            details.append(("Accessory", path))
            arguments = { $0.append(objectPath: path) }
        }
        func error(_ error: AccessorySetupError?) {
            let name = error.map { BusErrorNames.name(of: $0.code) } ?? ""
            let message = error?.reason?.description ?? ""
            if error != nil { details += [("Error", name), ("Message", message)] }
            arguments = { $0.append(name).append(message) }
        }
        switch event {
        case .pickerDidPresent: type = .pickerDidPresent
        case .migrationComplete: type = .migrationComplete
        case .accessoryAdded(let id): type = .accessoryAdded; accessory(id)
        case .accessoryChanged(let id): type = .accessoryChanged; accessory(id)
        case .accessoryRemoved(let id): type = .accessoryRemoved; accessory(id)
        case .pickerSetupRename(let id): type = .pickerSetupRename; accessory(id)
        case .pickerSetupFailed(let failure): type = .pickerSetupFailed; error(failure)
        case .pickerDidDismiss(let failure): type = .pickerDidDismiss; error(failure)
        case .accessoryDiscovered(let candidate):
            type = .accessoryDiscovered
            details = [("Candidate", "\(candidate.number)"), ("Name", candidate.name),
                       ("Identity", "\(candidate.identity)"), ("RSSI", "\(BusRSSI.encode(candidate.rssi))"),
                       ("AdvertisingData", hexString(candidate.advertisingData))]
            let discovered = WireDiscoveredAccessory(
                candidate: candidate.number, name: candidate.name, identity: "\(candidate.identity)",
                rssi: BusRSSI.encode(candidate.rssi), advertisement: candidate.advertisingData)
            arguments = { discovered.append(to: $0) }
        }
        signal(session, type, details, arguments)
    }

    func signal(_ session: ServiceSession, _ type: AccessoryEventType, _ details: [(key: String, value: String)],
                _ arguments: (BusReply) -> Void) {
        session.enqueue(type, details)
        try? connection.emitSignal(path: session.path, interface: BusNames.session, member: type.signalName,
                                   destination: session.owner, arguments)
    }

    // MARK: Helpers

    /// The session's app's accessory, if the app may use it now: its own, and
    /// authorized (not still awaiting the app's own authorization).
    func usableGrant(_ id: AccessoryID, of session: ServiceSession) throws(AccessorySetupError) -> Grant {
        let grant = try center.owned(id, by: session.app)
        guard grant.state == .authorized else {
            throw AccessorySetupError(.invalidRequest, reason: .message("\(DisplayText.escaped(grant.displayName)) is \(grant.state.rawValue), not authorized"))
        }
        return grant
    }

    func busError(_ error: AccessorySetupError) -> BusError {
        // The name already says which code: the message says why.
        BusError(name: BusErrorNames.name(of: error.code), message: error.reason?.description ?? error.description)
    }

    func reply(_ call: BusMessage, _ build: (BusReply) -> Void = { _ in }) -> BusConnection.MethodOutcome? {
        guard let reply = connection.reply(to: call) else { return nil }
        build(reply)
        return .reply(reply)
    }

    /// Runs `body`, turning an `AccessorySetupError` into its bus error.
    func outcome(_ body: () throws(AccessorySetupError) -> BusConnection.MethodOutcome?) -> BusConnection.MethodOutcome? {
        do { return try body() } catch { return .error(busError(error)) }
    }

    static let noSuchObject = BusError(name: BusErrorNames.unknownObject, message: "no such object")

    /// `Get`/`GetAll` of `org.freedesktop.DBus.Properties` over `values`.
    func properties(_ call: BusMessage, interface expected: String, _ values: [(String, BusVariant)]) -> BusConnection.MethodOutcome? {
        properties(call, interfaces: [expected], values)
    }

    /// The same where several interfaces are served (`values` are the first's);
    /// the caller's names are quoted back cut, as every error quotes them.
    func properties(_ call: BusMessage, interfaces: [String], _ values: [(String, BusVariant)]) -> BusConnection.MethodOutcome? {
        do throws(BusError) {
            let interface = try call.readString()
            guard let index = interfaces.firstIndex(of: interface) else {
                return .error(.invalidArguments("argument 1 (interface): \(DisplayText.excerpt(interface)) is not here; "
                    + (interfaces.count == 1 ? "only \(interfaces[0])" : "one of \(interfaces.joined(separator: ", "))")))
            }
            let here = index == 0 ? values : []
            switch call.member {
            case FreedesktopInterfaces.get.name:
                let name = try call.readString()
                guard let value = here.first(where: { $0.0 == name })?.1 else {
                    let names = here.isEmpty ? "\(interface) has none" : "one of " + here.map(\.0).joined(separator: ", ")
                    return .error(.invalidArguments("argument 2 (property): no property \(DisplayText.excerpt(name)); \(names)"))
                }
                return reply(call) { $0.append(variant: value) }
            case FreedesktopInterfaces.getAll.name:
                return reply(call) { $0.append(properties: here) }
            default:
                return .error(BusError(name: BusErrorNames.propertyReadOnly, message: "properties are read-only"))
            }
        } catch {
            return .error(error)
        }
    }
}
