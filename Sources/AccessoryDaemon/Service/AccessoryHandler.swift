import AccessoryCore
import AccessoryPlatform
import AccessoryWire

/// `org.accessoryagent.Accessory1` objects: each app sees its own
/// accessories, the administrator all, and anyone else none.
final class AccessoryHandler {
    private let replies: ServiceReplies
    private let callers: CallerResolver
    private let center: AuthorizationCenter

    init(connection: BusConnection, callers: CallerResolver, center: AuthorizationCenter) {
        replies = ServiceReplies(connection: connection)
        self.callers = callers
        self.center = center
    }

    func handle(_ call: BusMessage) -> BusConnection.MethodOutcome? {
        guard let path = call.path, let id = BusNames.accessory(at: path) else { return .error(ServiceReplies.noSuchObject) }
        return callers.withCaller(call) { [unowned self] caller in handle(call, id, caller) }
    }

    private func handle(_ call: BusMessage, _ id: AccessoryID, _ caller: Result<Caller, BusError>) -> BusConnection.MethodOutcome? {
        let grant: Grant
        do {
            let caller = try caller.get()
            // The administrator may look at any accessory; an app at its own only.
            let app: AppID? = caller.credentials.uid == 0 && caller.manifest == nil ? nil : caller.manifest?.app
            guard caller.manifest != nil || caller.credentials.uid == 0 else { return .error(ServiceReplies.noSuchObject) }
            grant = try center.owned(id, by: app)
        } catch {
            return .error(ServiceReplies.noSuchObject)
        }
        if let refused = ServiceReplies.wrongArgumentTypes(call, on: BusObjects.accessory) { return refused }
        switch call.interface {
        case BusNames.introspectable: return replies.reply(call) { $0.append(IntrospectionXML.accessory) }
        case BusNames.properties:
            return replies.properties(call, interface: BusNames.accessory, AccessoryPropertyValues.of(grant, center: center))
        default: return nil
        }
    }
}
