import AccessoryCore
import AccessoryPlatform

/// Reads what systemd knows of an app's wake socket unit and the service it
/// starts, over systemd's D-Bus API: `LoadUnit` and property reads answer
/// any caller, so this needs no privilege. Every call is asynchronous on
/// the loop: a slow systemd delays that app's check alone.
final class WakeSocketCheck {
    private let connection: BusConnection
    private static let systemd = "org.freedesktop.systemd1"
    private static let managerPath = "/org/freedesktop/systemd1"
    private static let timeout = Duration.seconds(10)

    init(connection: BusConnection) { self.connection = connection }

    typealias Completion = (Result<WakeSocketFacts, WakeSocketRefusal>) -> Void

    func facts(of socketUnit: String, completion: @escaping Completion) {
        func fail(_ why: String) { completion(.failure(WakeSocketRefusal(socketUnit, why))) }
        loadUnit(socketUnit, fail) { [self] path in
            property(path, "org.freedesktop.systemd1.Unit", "LoadState", "s", fail, { m throws(BusError) in try m.readString() }) { [self] loadState in
                guard loadState == "loaded" else {
                    completion(.success(WakeSocketFacts(loadState: loadState, listen: [], accept: false, triggers: [], serviceUser: "")))
                    return
                }
                property(path, "org.freedesktop.systemd1.Socket", "Accept", "b", fail, { m throws(BusError) in try m.readBool() }) { [self] accept in
                    property(path, "org.freedesktop.systemd1.Socket", "Listen", "a(ss)", fail, { m throws(BusError) in
                        var pairs: [(type: String, address: String)] = []
                        try m.readArray("(ss)") { () throws(BusError) in
                            try m.readContainer("r", "ss") { () throws(BusError) in pairs.append((try m.readString(), try m.readString())) }
                        }
                        return pairs
                    }) { [self] listen in
                        property(path, "org.freedesktop.systemd1.Unit", "Triggers", "as", fail, { m throws(BusError) in try m.readStrings() }) { [self] triggers in
                            let services = triggers.filter { $0.hasSuffix(".service") }
                            guard services.count == 1, let service = services.first else {
                                completion(.success(WakeSocketFacts(loadState: loadState, listen: listen, accept: accept, triggers: triggers, serviceUser: "")))
                                return
                            }
                            loadUnit(service, fail) { [self] servicePath in
                                property(servicePath, "org.freedesktop.systemd1.Service", "User", "s", fail, { m throws(BusError) in try m.readString() }) { user in
                                    completion(.success(WakeSocketFacts(loadState: loadState, listen: listen, accept: accept, triggers: triggers, serviceUser: user)))
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    private func loadUnit(_ unit: String, _ fail: @escaping (String) -> Void, _ next: @escaping (String) -> Void) {
        call(Self.managerPath, "org.freedesktop.systemd1.Manager", "LoadUnit", { $0.append(unit) }, fail,
             { m throws(BusError) in try m.readObjectPath() }, next)
    }

    private func property<T>(
        _ path: String, _ interface: String, _ name: String, _ contents: String, _ fail: @escaping (String) -> Void,
        _ read: @escaping (BusMessage) throws(BusError) -> T, _ next: @escaping (T) -> Void
    ) {
        call(path, "org.freedesktop.DBus.Properties", "Get", { $0.append(interface).append(name) }, fail, { m throws(BusError) in
            var value: T?
            try m.readContainer("v", contents) { () throws(BusError) in value = try read(m) }
            guard let value else { throw .invalidArguments("no value") }
            return value
        }, next)
    }

    private func call<T>(
        _ path: String, _ interface: String, _ member: String, _ build: (BusReply) -> Void, _ fail: @escaping (String) -> Void,
        _ read: @escaping (BusMessage) throws(BusError) -> T, _ next: @escaping (T) -> Void
    ) {
        do {
            try connection.callAsync(destination: Self.systemd, path: path, interface: interface, member: member,
                                     timeout: Self.timeout, build) { outcome in
                switch outcome {
                case .failure(let error): fail("cannot be checked with systemd (\(member)): \(error.message)")
                case .success(let reply):
                    do throws(BusError) { next(try read(reply)) } catch {
                        fail("cannot be checked with systemd (\(member)): \(error.message)")
                    }
                }
            }
        } catch {
            fail("cannot be checked with systemd (\(member)): \(error.message)")
        }
    }
}
