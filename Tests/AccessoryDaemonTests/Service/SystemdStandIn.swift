import AccessoryPlatform
import TestSupport

/// systemd's Manager as far as accessoryd asks it (`GetUnitByPID`, then the
/// unit's `Id`), owning `org.freedesktop.systemd1` on a private bus: here
/// systemd is not PID 1 and serves no private bus, so a stand-in on the
/// test's loop answers as systemd would (the system tier asks the real one,
/// `app-unit`). It writes each question down.
final class SystemdStandIn {
    enum Behaviour {
        /// Every process is in this unit.
        case unit(String)
        /// systemd's answer for a process in no unit.
        case noUnit
        /// An error of this name.
        case error(String)
        /// No answer until `answerLate`.
        case silent
    }

    let connection: BusConnection
    var behaviour: Behaviour
    /// The PIDs asked for, in order.
    private(set) var askedPIDs: [UInt32] = []
    private var held: [BusMessage] = []

    init(address: String, loop: EventLoop, _ behaviour: Behaviour) throws {
        self.behaviour = behaviour
        connection = try BusConnection(address: address, loop: loop)
        try connection.requestName("org.freedesktop.systemd1")
        try connection.serve(path: "/org/freedesktop/systemd1", subtree: true) { [unowned self] call, connection in
            switch (call.interface, call.member) {
            case ("org.freedesktop.systemd1.Manager", "GetUnitByPID"):
                do throws(BusError) {
                    askedPIDs.append(try call.readUInt32())
                } catch {
                    return .error(error)
                }
                switch self.behaviour {
                case .unit(let name):
                    let path = "/org/freedesktop/systemd1/unit/" + name.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
                    return connection.reply(to: call).map { .reply($0.append(objectPath: path)) }
                case .noUnit:
                    return .error(BusError(name: "org.freedesktop.systemd1.NoUnitForPID", message: "PID \(askedPIDs.last ?? 0) does not belong to any loaded unit."))
                case .error(let name):
                    return .error(BusError(name: name, message: "refused by the stand-in"))
                case .silent:
                    held.append(call)
                    return .deferred
                }
            case ("org.freedesktop.DBus.Properties", "Get"):
                guard case .unit(let name) = self.behaviour else { return .error(BusError(name: "org.freedesktop.DBus.Error.UnknownObject", message: "no such unit")) }
                return connection.reply(to: call).map { .reply($0.append(variant: .string(name))) }
            default:
                return nil
            }
        }
    }

    /// Answers the calls held while silent, with `name` as the unit.
    func answerLate(_ name: String) {
        behaviour = .unit(name)
        for call in held {
            let path = "/org/freedesktop/systemd1/unit/late"
            connection.finish(call, with: connection.reply(to: call).map { .reply($0.append(objectPath: path)) })
        }
        held.removeAll()
    }

    var holding: Int { held.count }
}
