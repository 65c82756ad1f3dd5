import AccessoryCore
import AccessoryPlatform
import AccessoryWire

/// `org.accessoryagent.Session1` at `/org/accessoryagent/session/N`: what an
/// app does with its session. Channels and hotspots have handlers of their own.
final class SessionHandler {
    private let replies: ServiceReplies
    private let callers: CallerResolver
    private let sessions: SessionTable
    private let lifetime: SessionLifetime
    private let signals: ServiceSignals
    private let budget: AppBudget
    private let center: AuthorizationCenter
    private let channels: ChannelHandler
    private let hotspots: HotspotHandler
    private let apps: () -> AppManifestCatalog
    private let scheduler: any Scheduler

    init(connection: BusConnection, callers: CallerResolver, sessions: SessionTable, lifetime: SessionLifetime,
         signals: ServiceSignals, budget: AppBudget, center: AuthorizationCenter, channels: ChannelHandler,
         hotspots: HotspotHandler, apps: @escaping () -> AppManifestCatalog, scheduler: any Scheduler) {
        replies = ServiceReplies(connection: connection)
        self.callers = callers
        self.sessions = sessions
        self.lifetime = lifetime
        self.signals = signals
        self.budget = budget
        self.center = center
        self.channels = channels
        self.hotspots = hotspots
        self.apps = apps
        self.scheduler = scheduler
    }

    func handle(_ call: BusMessage) -> BusConnection.MethodOutcome? {
        sessions.withSession(call, callers: callers) { [unowned self] session in
            // Another caller's session does not exist, as far as this caller can tell.
            guard let session, let sender = call.sender else { return .error(ServiceReplies.noSuchObject) }
            return handle(call, session, sender: sender)
        }
    }

    private func handle(_ call: BusMessage, _ session: ServiceSession, sender: String) -> BusConnection.MethodOutcome? {
        session.calledBy(sender, at: scheduler.now)
        if let refused = ServiceReplies.wrongArgumentTypes(call, on: BusObjects.session) { return refused }
        switch call.interface {
        case BusNames.introspectable where call.member == FreedesktopInterfaces.introspect.name:
            return replies.reply(call) { $0.append(IntrospectionXML.session) }
        case BusNames.properties:
            return replies.properties(call, interface: BusNames.session,
                                      [(Session1.app.name, .string("\(session.app)")), (Session1.state.name, .string(session.state.rawValue))])
        case BusNames.session:
            guard let member = call.member else { return nil }
            guard let method = Session1.Method(member: member) else {
                // An undeclared member is refused as before the handlers had a
                // case each: a dead or inactive session says so first.
                return ServiceReplies.outcome { () throws(AccessorySetupError) in
                    try session.checkAlive()
                    _ = try activeManifest(session)
                    return nil
                }
            }
            return ServiceReplies.outcome { () throws(AccessorySetupError) in try perform(method, call, session) }
        default:
            return nil
        }
    }

    private func perform(_ method: Session1.Method, _ call: BusMessage, _ session: ServiceSession) throws(AccessorySetupError) -> BusConnection.MethodOutcome? {
        try session.checkAlive()
        try budget.admitRequest(session.app, method.declaration)
        let limits = budget.limits
        switch method {
        case .activate:
            let wasActive = session.state == .active
            try session.activate()
            let accessories = center.grants(of: session.app).map { BusNames.path(of: $0.accessory) }
            signals.event(session, .activated, [("Accessories", accessories.joined(separator: " "))]) { $0.append(objectPaths: accessories) }
            if !wasActive { signals.sessionStateChanged(session) }
            return replies.reply(call) { $0.append(objectPaths: accessories) }
        case .invalidate:
            signals.event(session, .invalidated, []) { _ in }
            lifetime.end(session, why: "invalidated by the app")
        case .dismissPicker:
            // Needs neither activation nor the manifest: withdrawing takes nothing new.
            try center.withdraw(session: session.number)
        case .takeEvents:
            let events = session.takeEvents().map { WireQueuedEvent(type: $0.type.rawValue, details: $0.details) }
            return replies.reply(call) { $0.append(records: events) }
        case .openBluetoothChannel:
            _ = try activeManifest(session)
            return try channels.open(call, session)
        case .joinHotspot:
            _ = try activeManifest(session)
            return try hotspots.join(call, session)
        case .leaveHotspot:
            _ = try activeManifest(session)
            try hotspots.leave(call, session)
        case .observePresence:
            // The app asks to be woken (its manifest's `WakeSocket=`, by `AppWaker`)
            // when the accessory appears and it has no session; the wish is kept in the grant.
            let manifest = try activeManifest(session)
            let id = try BusArguments.accessory(call)
            let observe = try BusArguments.read { () throws(BusError) in try call.readBool() }
            try center.observePresence(id, manifest: manifest, observe: observe)
        case .showPicker:
            let manifest = try activeManifest(session)
            // One budget for the call's arguments together (ArgumentBytes).
            let reader = LimitedArguments(call, limits: limits)
            let items = try BusArguments.displayItems(reader)
            let settings = try BusArguments.settings(reader)
            try center.showPicker(session: session.number, manifest: manifest, items: items, settings: settings)
        case .migrate:
            let manifest = try activeManifest(session)
            try center.migrate(session: session.number, manifest: manifest, items: try BusArguments.migrationItems(call, limits: limits))
        case .updatePicker:
            let manifest = try activeManifest(session)
            try center.updatePicker(session: session.number, manifest: manifest, shown: try BusArguments.shownCandidates(call, limits: limits))
        case .finishPickerDiscovery:
            _ = try activeManifest(session)
            try center.finishDiscovery(session: session.number)
        case .finishAuthorization:
            _ = try activeManifest(session)
            let id = try BusArguments.accessory(call)
            let settings = try BusArguments.authorizationSettings(call, limits: limits)
            try center.finishAuthorization(id, app: session.app, ssid: settings.ssid, bridgingIdentifier: settings.bridgingIdentifier)
        case .failAuthorization:
            _ = try activeManifest(session)
            try center.failAuthorization(try BusArguments.accessory(call), app: session.app)
        case .updateAuthorization:
            let manifest = try activeManifest(session)
            let id = try BusArguments.accessory(call)
            try center.updateAuthorization(id, manifest: manifest, descriptor: try BusArguments.descriptor(call, limits: limits))
        case .removeAccessory:
            _ = try activeManifest(session)
            try center.remove(try BusArguments.accessory(call), app: session.app, by: .app(session.app))
        case .renameAccessory:
            _ = try activeManifest(session)
            let id = try BusArguments.accessory(call)
            let renaming = try BusArguments.renaming(call, limits: limits)
            try center.rename(id, app: session.app, to: renaming.name, renameSSID: renaming.renameSSID, by: .app(session.app))
        }
        return replies.reply(call)
    }

    /// What most methods need first: an activated session, and the app's manifest as it is now.
    private func activeManifest(_ session: ServiceSession) throws(AccessorySetupError) -> AppManifest {
        guard session.state == .active else {
            throw AccessorySetupError(.invalidRequest, reason: .message("activate the session first"))
        }
        guard let manifest = apps().manifests[session.app] else {
            throw AccessorySetupError(.activationFailed, reason: .message("\(session.app) no longer has an app manifest"))
        }
        return manifest
    }
}
