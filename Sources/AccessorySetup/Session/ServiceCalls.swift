import AccessoryCore
import AccessoryPlatform
import AccessoryWire

/// Calls to accessoryd, the service, made on the bus thread with its connection.
enum ServiceCalls {
    static func connect(_ context: BusThread.Context, address: String?) throws(AccessorySetupError) -> BusConnection {
        if let connection = context.connection { return connection }
        do {
            let connection = try BusConnection(address: address, loop: context.loop)
            context.connection = connection
            return connection
        } catch {
            throw AccessorySetupError(.activationFailed, reason: .message("cannot connect to the bus: \(error)"))
        }
    }

    /// A method call to accessoryd; its error reply thrown as accessoryd's code.
    static func call(
        _ context: BusThread.Context, path: String, interface: String, member: String,
        timeout: Duration = .seconds(25), _ build: (BusReply) -> Void = { _ in }
    ) throws(AccessorySetupError) -> BusMessage {
        guard let connection = context.connection else { throw AccessorySetupError(.invalidated) }
        do {
            return try connection.call(
                destination: BusNames.service, path: path, interface: interface, member: member,
                timeout: timeout, build)
        } catch {
            throw AccessorySetupError(error)
        }
    }

    /// Reads the reply's arguments; a reply the contract does not allow is `unknown`.
    static func decode<T>(_ what: String, _ read: () throws(BusError) -> T) throws(AccessorySetupError) -> T {
        do {
            return try read()
        } catch {
            throw AccessorySetupError(.unknown, reason: .message("the agent's \(what) is malformed: \(error.message)"))
        }
    }

    /// The accessory at `path`, through `Properties.GetAll`.
    static func accessory(_ context: BusThread.Context, path: String) throws(AccessorySetupError) -> Accessory {
        guard let id = BusNames.accessory(at: path) else {
            throw AccessorySetupError(.unknown, reason: .message("\(path) is not an accessory's path"))
        }
        let reply = try call(context, path: path, interface: BusNames.properties, member: FreedesktopInterfaces.getAll.name) {
            $0.append(BusNames.accessory)
        }
        let values = try decode("accessory \(id)") { () throws(BusError) in try WireAccessoryProperties.read(reply) }
        do {
            return try values.accessory(id: id)
        } catch {
            throw AccessorySetupError(.unknown, reason: .message("accessory \(id): \(error)"))
        }
    }
}
