import AccessoryCore
import AccessoryPlatform
import AccessoryWire

/// An app's session with accessoryd (`ASAccessorySession`): activate it,
/// show a picker to get an accessory, follow what happens through `events`.
///
///     let session = AccessorySession()
///     let known = try await session.activate()
///     Task { for await event in session.events { print(event) } }
///     try await session.showPicker(for: [PickerDisplayItem(name: "Acme Sensor", descriptor: descriptor)])
///
/// Every method may be called from any task or thread. The session's bus
/// connection lives on a thread of its own (see `BusThread`); it closes, and
/// the agent forgets the session, on `invalidate()` or when the session is released.
public final class AccessorySession: Sendable {
    /// The session's events, oldest first; the stream ends after `invalidated`.
    /// Meant for one reader, as `ASAccessorySession`'s event handler is one.
    /// A restart of accessoryd does not end it: once accessoryd is back and
    /// the session activated again, `serviceRestarted` (this library's own
    /// event) says so, with `accessories` already read again; channels it had
    /// handed over are closed, and an app opens them again then.
    public let events: AsyncStream<AccessoryEvent>
    /// Hotspot joins accessoryd ended because the link was lost (not an ASK
    /// event, hence a stream of its own); it ends with the session.
    public let hotspotLeaves: AsyncStream<HotspotLeft>
    /// The app's accessories coming into range and going out of it, each
    /// change once, with the signal strength heard. `accessories` is updated
    /// before the change is yielded.
    ///
    /// Presence and advertisements are not ASK events, so they are not in
    /// `events`; and they are two streams rather than one, because they are
    /// followed for different ends at very different rates: a state shown to
    /// a person, against a sensor's readings that may change every second.
    /// An app reads the one it needs, and each keeps its own bounded buffer
    /// (`bufferedUpdates`, the newest kept), so one left unread costs little
    /// and a flood of advertisements never pushes a presence change out.
    /// Both end with the session.
    public let presenceChanges: AsyncStream<AccessoryPresence>
    /// The app's Bluetooth LE accessories' advertising data, whenever it
    /// changes (see `presenceChanges` for why a stream of its own). An
    /// advertisement's RSSI also becomes its accessory's `rssi` in `accessories`.
    public let advertisements: AsyncStream<AccessoryAdvertisement>
    /// How many presence changes, and how many advertisements, wait for a
    /// reader that falls behind; beyond that the oldest are dropped
    /// (`accessories` always has the current state).
    public static let bufferedUpdates = 256
    let core: SessionCore

    /// A session with the agent on the system bus, or on the bus at
    /// `busAddress` (`unix:path=…`, for tests). Nothing happens until `activate()`.
    public init(busAddress: String? = nil) {
        let (events, continuation) = AsyncStream.makeStream(of: AccessoryEvent.self)
        let (hotspotLeaves, leaves) = AsyncStream.makeStream(of: HotspotLeft.self)
        let (presenceChanges, presence) = AsyncStream.makeStream(
            of: AccessoryPresence.self, bufferingPolicy: .bufferingNewest(Self.bufferedUpdates))
        let (advertisements, advertised) = AsyncStream.makeStream(
            of: AccessoryAdvertisement.self, bufferingPolicy: .bufferingNewest(Self.bufferedUpdates))
        self.events = events
        self.hotspotLeaves = hotspotLeaves
        self.presenceChanges = presenceChanges
        self.advertisements = advertisements
        core = SessionCore(
            busAddress: busAddress, events: continuation, hotspotLeaves: leaves, presenceChanges: presence,
            advertisements: advertised)
    }

    deinit { core.end() }

    /// The app's accessories as this session knows them: those of `activate()`,
    /// kept current by the accessory events, presence changes and advertisements.
    public var accessories: [Accessory] { core.state.withLock { $0.accessories } }

    /// Connects, opens a session for this app (the agent knows the app by its
    /// unix user or systemd unit) and returns the accessories authorized for it
    /// before. `activationFailed` when the app has no manifest or the bus is
    /// out of reach; the app may try again then. The `activated` event follows.
    @discardableResult
    public func activate() async throws(AccessorySetupError) -> [Accessory] {
        let thread = try core.beginActivation()
        let address = core.busAddress
        let core = self.core
        do {
            let (path, accessories) = try await thread.perform { context throws(AccessorySetupError) in
                try Self.open(context, address: address, thread: thread, core: core)
            }
            try core.finishActivation(thread, path: path)
            return accessories
        } catch {
            core.abandonActivation(thread)
            throw error
        }
    }

    /// Ends the session for good, at once: later calls throw `invalidated`,
    /// a waiting `showPicker` too; the agent is told (and dismisses its
    /// picker), then `events` ends with the `invalidated` event.
    public func invalidate() {
        guard let ending = core.markEnded() else { return }
        let core = self.core
        if let thread = ending.thread, let path = ending.path {
            let posted = thread.post { context in
                _ = try? ServiceCalls.call(context, path: path, interface: BusNames.session, member: Session1.invalidate.name)
                core.finish(ending)
            }
            if posted { return }
        }
        core.finish(ending)
    }

    // MARK: The picker

    /// Asks the agent for one accessory matching one of `items`, and returns
    /// once the picker is dismissed: normally after someone picked one (the
    /// `accessoryAdded` event carries it); throws `userCancelled` after a
    /// denial, `discoveryTimeout` when nothing was found in time,
    /// `invalidRequest` for a descriptor the rules or the manifest refuse,
    /// `pickerAlreadyActive`, `invalidated`.
    ///
    /// Cancelling the task that awaits it returns at once, throwing
    /// `pickerTaskCancelled` (`userCancelled`: the function throws this
    /// library's errors only, so not `CancellationError`), and withdraws the
    /// picker as `dismissPicker()` does, without waiting: `pickerDidDismiss`
    /// (`userCancelled`) follows as an event. Should the picker have ended
    /// meanwhile, what it brought arrives as events all the same (a pick as
    /// `accessoryAdded`, then `pickerDidDismiss`).
    public func showPicker(
        for items: [PickerDisplayItem], settings: PickerDisplaySettings = .init()
    ) async throws(AccessorySetupError) {
        let (thread, path) = try core.active()
        let core = self.core
        let token = core.newPickerToken()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: SessionCore.PickerWaiter) in
                let posted = thread.post { context in
                    switch core.startPicker(token, waiter: waiter) {
                    case .call: break
                    case .alreadyActive: return waiter.resume(returning: AccessorySetupError(.pickerAlreadyActive))
                    case .cancelled: return waiter.resume(returning: AccessorySetupError.pickerTaskCancelled)
                    }
                    do throws(AccessorySetupError) {
                        _ = try ServiceCalls.call(context, path: path, interface: BusNames.session, member: Session1.showPicker.name) {
                            $0.append(items: items).append(settings: settings)
                        }
                        _ = core.pickerAnswered(token, refused: false)
                    } catch {
                        core.pickerAnswered(token, refused: true)?.resume(returning: error)
                    }
                }
                if !posted { waiter.resume(returning: AccessorySetupError(.invalidated)) }
            }
        } onCancel: {
            // Not waiting for the bus thread, which may be inside the call.
            guard let waiter = core.cancelPicker(token) else { return }
            waiter.resume(returning: AccessorySetupError.pickerTaskCancelled)
            // Nobody waits for the picker any more: withdraw it, once the agent
            // took it (jobs run in order, so after a call still under way).
            thread.post { context in
                guard core.withdrawsAbandonedPicker else { return }
                // Ignored: the picker may have ended meanwhile.
                _ = try? ServiceCalls.call(context, path: path, interface: BusNames.session, member: Session1.dismissPicker.name)
            }
        }
        if let outcome { throw outcome }
    }

    /// Withdraws the open picker (or migration request) at once: it is gone
    /// for whoever would have decided it, a waiting `showPicker` throws
    /// `userCancelled`, and `pickerDidDismiss` follows with that error.
    /// `invalidRequest` when no picker is open. Not an AccessorySetupKit
    /// method, as there the person dismisses the picker; on a gateway with no
    /// one in front of it, the app is the one that gives up.
    public func dismissPicker() async throws(AccessorySetupError) {
        try await sessionCall(Session1.dismissPicker.name)
    }

    /// With `filterDiscoveryResults`: the discovered candidates to show.
    public func updatePicker(showing items: [DiscoveredDisplayItem]) async throws(AccessorySetupError) {
        try await sessionCall(Session1.updatePicker.name) { $0.append(shown: items) }
    }

    /// Stops discovering; the candidates found so far stay for the decision.
    public func finishPickerDiscovery() async throws(AccessorySetupError) {
        try await sessionCall(Session1.finishPickerDiscovery.name)
    }

    // MARK: Authorization

    /// Completes setup of an accessory picked with `finishInApp` or
    /// `confirmAuthorization`: `awaitingAuthorization` becomes `authorized`.
    public func finishAuthorization(
        for accessory: Accessory, settings: AccessorySettings = .init()
    ) async throws(AccessorySetupError) {
        try await sessionCall(Session1.finishAuthorization.name) {
            $0.append(objectPath: BusNames.path(of: accessory.id)).append(accessorySettings: settings)
        }
    }

    /// Setup failed in the app: the agent removes the accessory.
    public func failAuthorization(for accessory: Accessory) async throws(AccessorySetupError) {
        try await sessionCall(Session1.failAuthorization.name) { $0.append(objectPath: BusNames.path(of: accessory.id)) }
    }

    /// Replaces the descriptor an accessory is known by (checked like a picker's).
    public func updateAuthorization(
        for accessory: Accessory, descriptor: DiscoveryDescriptor
    ) async throws(AccessorySetupError) {
        try await sessionCall(Session1.updateAuthorization.name) {
            $0.append(objectPath: BusNames.path(of: accessory.id))
                .append(descriptor: descriptor)
        }
    }

    /// Gives up the accessory; `accessoryRemoved` follows.
    public func removeAccessory(_ accessory: Accessory) async throws(AccessorySetupError) {
        try await sessionCall(Session1.removeAccessory.name) { $0.append(objectPath: BusNames.path(of: accessory.id)) }
    }

    /// A new display name (with `.ssid`, a Wi-Fi accessory's SSID too); `accessoryChanged` follows.
    public func renameAccessory(
        _ accessory: Accessory, to name: String, options: AccessoryRenameOptions = []
    ) async throws(AccessorySetupError) {
        try await sessionCall(Session1.renameAccessory.name) {
            $0.append(objectPath: BusNames.path(of: accessory.id)).append(renaming: name, options: options)
        }
    }

    /// Registers accessories the gateway already uses, after approval like a
    /// picker's: returns when the agent has taken the request; each new one
    /// arrives as `accessoryAdded`, then `migrationComplete`.
    public func migrate(_ items: [MigrationDisplayItem]) async throws(AccessorySetupError) {
        try await sessionCall(Session1.migrate.name) { $0.append(migrationItems: items) }
    }

    // MARK: Plumbing

    /// On the bus thread: connects, opens the session, listens to its signals
    /// (and to the agent leaving and coming back), activates it and reads its
    /// accessories. Also how a session is opened again after a restart.
    private static func open(
        _ context: BusThread.Context, address: String?, thread: BusThread, core: SessionCore
    ) throws(AccessorySetupError) -> (path: String, accessories: [Accessory]) {
        let connection = try ServiceCalls.connect(context, address: address)
        let opened = try ServiceCalls.call(
            context, path: BusNames.root, interface: BusNames.manager, member: Manager1.openSession.name)
        let path = try ServiceCalls.decode("OpenSession reply") { () throws(BusError) in try opened.readObjectPath() }
        // Only the agent that opened the session is listened to: the unique
        // name that owned org.accessoryagent and answered OpenSession.
        let agent = opened.sender
        do {
            try connection.onSignal(sender: agent, interface: BusNames.session) { [weak thread] message in
                guard fromAgent(message, agent), message.path == path, let member = message.member else { return }
                if member == Session1.hotspotLeft.name {
                    if let left = try? HotspotLeft.read(from: message) { core.hotspotLeaves.yield(left) }
                    return
                }
                guard let signal = try? SessionSignal.read(member, from: message) else { return }
                // Read and delivered as a job of its own: the accessory it names
                // is fetched with a call, which sd-bus's dispatch must not wait on.
                thread?.post { context in core.deliver(signal, context: context) }
            }
            try followAccessories(sender: agent, connection: connection, thread: thread, core: core)
            if let agent { try watchService(agent, connection: connection, address: address, thread: thread, core: core) }
        } catch {
            throw AccessorySetupError(.activationFailed, reason: .message("\(error)"))
        }
        let activated = try ServiceCalls.call(context, path: path, interface: BusNames.session, member: Session1.activate.name)
        let paths = try ServiceCalls.decode("Activate reply") { () throws(BusError) in try activated.readObjectPaths() }
        var accessories: [Accessory] = []
        for accessoryPath in paths { accessories.append(try ServiceCalls.accessory(context, path: accessoryPath)) }
        core.adoptActivated(accessories, thread: thread)
        return (path, accessories)
    }

    /// Calls a `Session1` method that returns nothing.
    func sessionCall(
        _ member: String, _ build: @escaping @Sendable (BusReply) -> Void = { _ in }
    ) async throws(AccessorySetupError) {
        let (thread, path) = try core.active()
        try await thread.perform { context throws(AccessorySetupError) in
            _ = try ServiceCalls.call(context, path: path, interface: BusNames.session, member: member, build)
        }
    }

    /// Presence (`PropertiesChanged` on an accessory's object) and
    /// advertisements, from the agent only. Delivered as jobs, like the
    /// session's signals, so they keep their order with `accessoryAdded`.
    private static func followAccessories(
        sender agent: String?, connection: BusConnection, thread: BusThread, core: SessionCore
    ) throws(SystemError) {
        for (interface, member) in [(BusNames.properties, FreedesktopInterfaces.propertiesChanged.name), (BusNames.accessory, Accessory1.advertisement.name)] {
            try connection.onSignal(sender: agent, interface: interface, member: member) { [weak thread] message in
                // Malformed ones are skipped.
                guard fromAgent(message, agent), let signal = try? AccessorySignal.read(message) else { return }
                thread?.post { _ in core.deliver(signal) }
            }
        }
    }

    /// The agent leaving the bus (a restart, an upgrade, a crash) takes the
    /// session with it, but not the app's grants: the session waits, and
    /// once org.accessoryagent has an owner again (the same service, as only
    /// accessoryd's user may own it on the system bus), `reopen` opens and
    /// activates a new one. Signals are only ever taken from the agent that
    /// answered OpenSession, so nothing the old or the new one says is
    /// mistaken for the other's.
    private static func watchService(
        _ agent: String, connection: BusConnection, address: String?, thread: BusThread, core: SessionCore
    ) throws(SystemError) {
        try connection.onSignal(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged") {
            [weak thread] message in
            guard let thread, let name = try? message.readString(), let oldOwner = try? message.readString(),
                let newOwner = try? message.readString()
            else { return }
            // Given up (then its unique name goes too, just after), or gone.
            if name == agent || (name == BusNames.service && oldOwner == agent) { core.serviceLeft(thread) }
            if name == BusNames.service, !newOwner.isEmpty, newOwner != agent {
                core.serviceLeft(thread)
                thread.post { context in reopen(context, address: address, thread: thread, core: core) }
            }
        }
    }

    /// On the bus thread, once accessoryd is back: a new connection (the old
    /// one's match rules name the agent that left), a new session, activated;
    /// its `Activated` becomes the one `serviceRestarted` event, after the
    /// accessories were read again. Should the new accessoryd refuse (the
    /// app's manifest gone), the session ends with the reason.
    private static func reopen(_ context: BusThread.Context, address: String?, thread: BusThread, core: SessionCore) {
        guard core.isRestarting(thread) else { return }
        context.connection = nil
        do {
            let (path, _) = try open(context, address: address, thread: thread, core: core)
            core.finishRestart(thread, path: path)
        } catch {
            core.end(error: AccessorySetupError(
                .invalidated, reason: .message("accessoryd restarted, but the session could not be activated again: \(error)")))
        }
    }

    /// Whether `message` comes from the agent. The match rules already ask the
    /// bus for the agent's signals only; a signal addressed to this connection
    /// reaches it whatever the rules say, so each is checked again here.
    private static func fromAgent(_ message: BusMessage, _ agent: String?) -> Bool {
        // No agent name: a direct connection, which has no one else on it.
        agent == nil || message.sender == agent
    }
}
