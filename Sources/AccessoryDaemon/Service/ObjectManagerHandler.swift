import AccessoryCore
import AccessoryPlatform
import AccessoryWire

/// `GetManagedObjects` at the root: the caller's sessions and its app's
/// accessories, and nothing of anyone else's.
final class ObjectManagerHandler {
    private let replies: ServiceReplies
    private let callers: CallerResolver
    private let sessions: SessionTable
    private let center: AuthorizationCenter

    init(connection: BusConnection, callers: CallerResolver, sessions: SessionTable, center: AuthorizationCenter) {
        replies = ServiceReplies(connection: connection)
        self.callers = callers
        self.sessions = sessions
        self.center = center
    }

    func managedObjects(_ call: BusMessage) -> BusConnection.MethodOutcome? {
        callers.withCaller(call) { [unowned self] caller in
            guard case .success(let caller) = caller else { return .error(ServiceReplies.noSuchObject) }
            return managedObjects(call, caller)
        }
    }

    private func managedObjects(_ call: BusMessage, _ caller: Caller) -> BusConnection.MethodOutcome? {
        let own = sessions.open.filter { $0.owner == caller.sender || ($0.persistent && $0.app == caller.manifest?.app) }
        let grants = caller.manifest.map { center.grants(of: $0.app) } ?? []
        // Each object with its one interface's properties, sessions first.
        var objects: [(path: String, interface: String, properties: [(String, BusVariant)])] = own.map { session in
            (session.path, BusNames.session, [
                (Session1.app.name, .string("\(session.app)")), (Session1.state.name, .string(session.state.rawValue)),
            ])
        }
        objects += grants.map { (BusNames.path(of: $0.accessory), BusNames.accessory, AccessoryPropertyValues.of($0, center: center)) }
        return replies.reply(call) { reply in
            reply.container("a", AccessoryPropertyValues.managedObject.signature) { entries in
                for object in objects {
                    entries.container("e", AccessoryPropertyValues.managedObject.contents) { entry in
                        entry.append(objectPath: object.path).container("a", AccessoryPropertyValues.interfaceEntry.signature) { interfaces in
                            interfaces.container("e", AccessoryPropertyValues.interfaceEntry.contents) {
                                $0.append(object.interface).append(properties: object.properties)
                            }
                        }
                    }
                }
            }
        }
    }
}
