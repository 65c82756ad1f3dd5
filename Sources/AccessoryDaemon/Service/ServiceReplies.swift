import AccessoryCore
import AccessoryPlatform
import AccessoryWire

/// How every handler answers: replies, bus errors, the argument check and
/// the read-only `Properties` interface, in one place so that every object
/// answers alike.
struct ServiceReplies {
    let connection: BusConnection

    static let noSuchObject = BusError(name: BusErrorNames.unknownObject, message: "no such object")

    static func busError(_ error: AccessorySetupError) -> BusError {
        // The name already says which code: the message says why.
        BusError(name: BusErrorNames.name(of: error.code), message: error.reason?.description ?? error.description)
    }

    /// Runs `body`, turning an `AccessorySetupError` into its bus error.
    static func outcome(_ body: () throws(AccessorySetupError) -> BusConnection.MethodOutcome?) -> BusConnection.MethodOutcome? {
        do { return try body() } catch { return .error(busError(error)) }
    }

    /// `InvalidArgs` for a call whose signature is not its method's declared
    /// one (AccessoryWire), checked for every method of every object so none
    /// can forget it; nil for a call that may go on (or is no method declared there).
    static func wrongArgumentTypes(_ call: BusMessage, on interfaces: [BusInterface]) -> BusConnection.MethodOutcome? {
        guard let member = call.member,
            let method = interfaces.first(where: { $0.name == call.interface })?.method(member),
            let mismatch = method.argumentMismatch(received: call.signature)
        else { return nil }
        return .error(.invalidArguments(mismatch))
    }

    func reply(_ call: BusMessage, _ build: (BusReply) -> Void = { _ in }) -> BusConnection.MethodOutcome? {
        guard let reply = connection.reply(to: call) else { return nil }
        build(reply)
        return .reply(reply)
    }

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
