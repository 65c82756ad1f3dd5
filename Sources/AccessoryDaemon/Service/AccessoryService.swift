import AccessoryCore
import AccessorySystem
import Logging

/// accessoryd's D-Bus API: `org.accessoryagent.Manager1` at
/// /org/accessoryagent opens sessions; each session is an object of its own
/// (`org.accessoryagent.Session1`) that only the caller who opened it can
/// see or use. Who a caller is comes from the bus's credentials, mapped to
/// an app manifest; a caller without one gets nothing.
public final class AccessoryService {
    private let connection: BusConnection
    private let apps: () -> AppManifestCatalog
    private let grants: () -> [Grant]
    private let logger: Logger
    private var sessions: [UInt64: AccessorySession] = [:]
    private var nextSession: UInt64 = 1

    public init(
        connection: BusConnection, logger: Logger,
        apps: @escaping () -> AppManifestCatalog, grants: @escaping () -> [Grant]
    ) throws(SystemError) {
        self.connection = connection
        self.logger = logger
        self.apps = apps
        self.grants = grants
        try connection.serve(path: BusNames.root) { [unowned self] call, _ in handleManager(call) }
        try connection.serve(path: BusNames.sessions, subtree: true) { [unowned self] call, _ in handleSession(call) }
    }

    /// The sessions open now (for tests and status).
    public var openSessions: [AccessorySession] { sessions.values.sorted { $0.number < $1.number } }

    // MARK: Manager1

    private func handleManager(_ call: BusMessage) -> BusConnection.MethodOutcome? {
        guard call.path == BusNames.root else { return nil }
        switch (call.interface, call.member) {
        case (BusNames.introspectable, "Introspect"):
            return reply(call) { $0.append(Introspection.manager) }
        case (BusNames.manager, "OpenSession"):
            return openSession(call)
        default:
            return nil
        }
    }

    private func openSession(_ call: BusMessage) -> BusConnection.MethodOutcome? {
        let caller: CallerCredentials
        do { caller = try connection.credentials(of: call) } catch { return .error(error) }
        guard let owner = call.sender else { return .error(.invalidArguments("no sender")) }
        guard let manifest = apps().manifest(forUser: caller.userName, unit: caller.unit) else {
            let who = "uid \(caller.uid)" + (caller.userName.map { " (\($0))" } ?? "") + (caller.unit.map { " in \($0)" } ?? "")
            logger.notice("Refused a session to a caller without an app manifest", metadata: [
                "caller.uid": "\(caller.uid)", "caller.unit": "\(caller.unit ?? "")",
            ])
            return .error(BusError(
                name: BusNames.error(AccessorySetupError.Code.activationFailed.description),
                message: "\(who) has no app manifest in \(AppManifestLoader.vendorDirectory) or \(AppManifestLoader.administratorDirectory)"))
        }
        let session = AccessorySession(number: nextSession, app: manifest.app, owner: owner)
        nextSession += 1
        sessions[session.number] = session
        // A session ends when its caller leaves the bus, as an app's process exits.
        try? connection.whenSenderLeaves(call) { [weak self] in self?.callerLeft(owner) }
        logger.info("Session opened", metadata: ["app": "\(manifest.app)", "session": "\(session.path)"])
        return reply(call) { $0.append(objectPath: session.path) }
    }

    private func callerLeft(_ owner: String) {
        for session in sessions.values where session.owner == owner {
            session.invalidate()
            sessions.removeValue(forKey: session.number)
            logger.info("Session ended: its caller left the bus", metadata: ["app": "\(session.app)", "session": "\(session.path)"])
        }
    }

    // MARK: Session1

    private func handleSession(_ call: BusMessage) -> BusConnection.MethodOutcome? {
        // Another caller's session does not exist, as far as this caller can tell.
        guard let path = call.path, let number = UInt64(path.dropFirst(BusNames.sessions.count + 1)),
            let session = sessions[number], session.owner == call.sender
        else {
            return .error(BusError(name: "org.freedesktop.DBus.Error.UnknownObject", message: "no such object"))
        }
        switch (call.interface, call.member) {
        case (BusNames.introspectable, "Introspect"):
            return reply(call) { $0.append(Introspection.session) }
        case (BusNames.session, "Activate"):
            do throws(AccessorySetupError) { try session.activate() } catch { return .error(busError(error)) }
            let accessories = grants().filter { $0.app == session.app }.map { "\(BusNames.root)/accessory/\($0.accessory)" }
            try? connection.emitSignal(path: session.path, interface: BusNames.session, member: "Activated",
                                       destination: session.owner) { signal in
                signal.container("a", "o") { r in accessories.forEach { r.append(objectPath: $0) } }
            }
            return reply(call) { $0.container("a", "o") { r in accessories.forEach { r.append(objectPath: $0) } } }
        case (BusNames.session, "Invalidate"):
            guard session.state != .invalidated else {
                return .error(busError(AccessorySetupError(.invalidated, reason: .message("the session was invalidated"))))
            }
            session.invalidate()
            try? connection.emitSignal(path: session.path, interface: BusNames.session, member: "Invalidated",
                                       destination: session.owner) { _ in }
            return reply(call) { _ in }
        case (BusNames.properties, "Get"), (BusNames.properties, "GetAll"):
            return properties(call, session)
        default:
            return nil
        }
    }

    private func properties(_ call: BusMessage, _ session: AccessorySession) -> BusConnection.MethodOutcome? {
        let values: [(String, BusVariant)] = [("App", .string("\(session.app)")), ("State", .string(session.state.rawValue))]
        do throws(BusError) {
            let interface = try call.readString()
            guard interface == BusNames.session else {
                return .error(.invalidArguments("no interface \(interface) here"))
            }
            if call.member == "Get" {
                let name = try call.readString()
                guard let value = values.first(where: { $0.0 == name })?.1 else {
                    return .error(.invalidArguments("no property \(name)"))
                }
                return reply(call) { $0.append(variant: value) }
            }
            return reply(call) { reply in
                reply.container("a", "{sv}") { array in
                    for (name, value) in values {
                        array.container("e", "sv") { $0.append(name).append(variant: value) }
                    }
                }
            }
        } catch {
            return .error(error)
        }
    }

    private func busError(_ error: AccessorySetupError) -> BusError {
        BusError(name: BusNames.error(error.code.description), message: error.description)
    }

    private func reply(_ call: BusMessage, _ build: (BusReply) -> Void) -> BusConnection.MethodOutcome? {
        guard let reply = connection.reply(to: call) else { return nil }
        build(reply)
        return .reply(reply)
    }
}
