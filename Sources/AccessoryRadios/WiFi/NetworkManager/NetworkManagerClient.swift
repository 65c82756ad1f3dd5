import AccessoryCodecs
import AccessoryCore
import AccessoryPlatform

/// Talks to NetworkManager over its documented D-Bus API
/// (`org.freedesktop.NetworkManager` and the interfaces of its objects).
///
/// Two ways to ask, as with `WPASupplicantClient`:
/// - On the event loop (`blocking == false`): every call is sent with
///   `callAsync` and answered when the reply comes, or ended with
///   `NetworkManagerError.noReply` at its deadline, armed on the loop's clock
///   by sd-bus. A NetworkManager that does not answer never stalls the loop.
/// - Blocking (`blocking == true`), each call bounded by `timeout`: only where
///   no loop runs yet or any more (the cleanup after a crash before the loop
///   starts, the cleanup when the daemon stops). The completion is then
///   called before the method returns, so the same steps serve both ways.
public final class NetworkManagerClient {
    public static let busName = "org.freedesktop.NetworkManager"
    static let managerPath = "/org/freedesktop/NetworkManager"
    static let settingsPath = "/org/freedesktop/NetworkManager/Settings"
    public static let deviceInterface = "org.freedesktop.NetworkManager.Device"
    public static let activeInterface = "org.freedesktop.NetworkManager.Connection.Active"

    public let connection: BusConnection
    public let timeout: Duration
    public var blocking: Bool
    private var pending: [ObjectIdentifier: PendingBusCall] = [:]

    public init(connection: BusConnection, timeout: Duration = .seconds(5), blocking: Bool = false) {
        self.connection = connection
        self.timeout = timeout
        self.blocking = blocking
    }

    /// Withdraws every call not answered yet; their completions are never called.
    public func cancelAll() {
        for call in pending.values { call.cancel() }
        pending.removeAll()
    }

    /// One method call, either way; `read` takes the reply's arguments.
    func call<T>(
        _ path: String, _ interface: String, _ member: String, timeout: Duration? = nil, _ build: (BusReply) -> Void = { _ in },
        read: @escaping (BusMessage) throws(BusError) -> T,
        completion: @escaping (Result<T, NetworkManagerError>) -> Void
    ) {
        func deliver(_ outcome: Result<BusMessage, BusError>) {
            switch outcome {
            case .success(let reply):
                do { completion(.success(try read(reply))) } catch { completion(.failure(.malformedReply(method: member))) }
            case .failure(let error):
                completion(.failure(.from(error, method: member)))
            }
        }
        if blocking {
            do throws(BusError) {
                deliver(.success(try connection.call(destination: Self.busName, path: path, interface: interface,
                                                     member: member, timeout: timeout ?? self.timeout, build)))
            } catch {
                deliver(.failure(error))
            }
            return
        }
        var key: ObjectIdentifier?
        do throws(BusError) {
            let call = try connection.callAsync(destination: Self.busName, path: path, interface: interface, member: member,
                                                timeout: timeout ?? self.timeout, build) { [weak self] outcome in
                if let key { self?.pending[key] = nil }
                deliver(outcome)
            }
            key = ObjectIdentifier(call)
            pending[ObjectIdentifier(call)] = call
        } catch {
            completion(.failure(.from(error, method: member)))
        }
    }

    // MARK: The methods a join uses

    /// `GetDeviceByIpIface`: the device object of `interface`.
    public func device(of interface: String, completion: @escaping (Result<String, NetworkManagerError>) -> Void) {
        call(Self.managerPath, Self.busName, "GetDeviceByIpIface", { $0.append(interface) },
             read: { reply throws(BusError) in try reply.readObjectPath() }, completion: completion)
    }

    /// One property of one object (`org.freedesktop.DBus.Properties.Get`), read by `read` inside its variant.
    public func property<T>(
        _ path: String, _ interface: String, _ name: String, contents: String,
        read: @escaping (BusMessage) throws(BusError) -> T,
        completion: @escaping (Result<T, NetworkManagerError>) -> Void
    ) {
        call(path, "org.freedesktop.DBus.Properties", "Get", { $0.append(interface).append(name) },
             read: { reply throws(BusError) in
                 var value: T?
                 try reply.readContainer("v", contents) { () throws(BusError) in value = try read(reply) }
                 guard let value else { throw .invalidArguments("no value") }
                 return value
             }, completion: completion)
    }

    public func objectPathProperty(
        _ path: String, _ interface: String, _ name: String, completion: @escaping (Result<String, NetworkManagerError>) -> Void
    ) {
        property(path, interface, name, contents: "o", read: { reply throws(BusError) in try reply.readObjectPath() },
                 completion: completion)
    }

    /// `AddAndActivateConnection2(profile, device, "/", {persist: volatile, bind-activation: none})`:
    /// the profile lives in memory only and NetworkManager deletes it when it deactivates.
    /// Answers (profile path, active connection path). `timeout`: a join gives
    /// its whole deadline, so that a slow answer is still awaited (and the
    /// profile it creates undone) rather than given up while NetworkManager
    /// goes on to create it.
    public func addAndActivate(
        _ profile: NetworkManagerProfile, device: String, timeout: Duration? = nil,
        completion: @escaping (Result<(profile: String, active: String), NetworkManagerError>) -> Void
    ) {
        call(Self.managerPath, Self.busName, "AddAndActivateConnection2", timeout: timeout, { message in
            message.append(profile: profile)
            message.append(objectPath: device).append(objectPath: "/")
            message.container("a", "{sv}") { options in
                options.container("e", "sv") { $0.append("persist").append(variant: .string("volatile")) }
                options.container("e", "sv") { $0.append("bind-activation").append(variant: .string("none")) }
            }
        }, read: { reply throws(BusError) in
            let profile = try reply.readObjectPath()
            let active = try reply.readObjectPath()
            return (profile, active)
        }, completion: completion)
    }

    public func deactivate(_ active: String, completion: @escaping (Result<Void, NetworkManagerError>) -> Void) {
        call(Self.managerPath, Self.busName, "DeactivateConnection", { $0.append(objectPath: active) },
             read: { _ throws(BusError) in () }, completion: completion)
    }

    /// `ActivateConnection(profile, device, "/")`: answers the active connection's path.
    public func activate(_ profile: String, device: String, completion: @escaping (Result<String, NetworkManagerError>) -> Void) {
        call(Self.managerPath, Self.busName, "ActivateConnection",
             { $0.append(objectPath: profile).append(objectPath: device).append(objectPath: "/") },
             read: { reply throws(BusError) in try reply.readObjectPath() }, completion: completion)
    }

    /// `Settings.GetConnectionByUuid`: nil when there is no such profile.
    public func profile(uuid: String, completion: @escaping (Result<String?, NetworkManagerError>) -> Void) {
        call(Self.settingsPath, "org.freedesktop.NetworkManager.Settings", "GetConnectionByUuid", { $0.append(uuid) },
             read: { reply throws(BusError) in try reply.readObjectPath() }) { outcome in
            switch outcome {
            case .success(let path): completion(.success(path))
            case .failure(.notFound): completion(.success(nil))
            case .failure(let error): completion(.failure(error))
            }
        }
    }

    /// `Settings.Connection.Delete`; a profile already gone counts as deleted.
    public func delete(profile: String, completion: @escaping (Result<Void, NetworkManagerError>) -> Void) {
        call(profile, "org.freedesktop.NetworkManager.Settings.Connection", "Delete",
             read: { _ throws(BusError) in () }) { outcome in
            if case .failure(.notFound) = outcome { completion(.success(())) } else { completion(outcome) }
        }
    }

    /// The uuid of the profile an active connection runs, and its state (`NMActiveConnectionState`).
    public func activeConnection(
        _ active: String, completion: @escaping (Result<(uuid: String, state: UInt32), NetworkManagerError>) -> Void
    ) {
        property(active, Self.activeInterface, "Uuid", contents: "s", read: { reply throws(BusError) in try reply.readString() }) {
            [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .failure(let error): completion(.failure(error))
            case .success(let uuid):
                property(active, Self.activeInterface, "State", contents: "u",
                         read: { reply throws(BusError) in try reply.readUInt32() }) { state in
                    completion(state.map { (uuid, $0) })
                }
            }
        }
    }

    /// The first IPv4 address of an active connection (its Ip4Config's
    /// `AddressData`), nil when it has none.
    public func ipv4Address(of active: String, completion: @escaping (Result<IPv4Address?, NetworkManagerError>) -> Void) {
        objectPathProperty(active, Self.activeInterface, "Ip4Config") { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .failure(let error): completion(.failure(error))
            case .success("/"): completion(.success(nil))
            case .success(let config):
                property(config, "org.freedesktop.NetworkManager.IP4Config", "AddressData", contents: "aa{sv}",
                         read: { reply throws(BusError) in try Self.firstAddress(reply) }, completion: completion)
            }
        }
    }

    /// The `address` of the first entry of an `aa{sv}` AddressData.
    static func firstAddress(_ reply: BusMessage) throws(BusError) -> IPv4Address? {
        var first: IPv4Address?
        try reply.readArray("a{sv}") { () throws(BusError) in
            try reply.readArray("{sv}") { () throws(BusError) in
                try reply.readContainer("e", "sv") { () throws(BusError) in
                    let key = try reply.readString()
                    if key == "address", reply.peekType()?.contents == "s" {
                        try reply.readContainer("v", "s") { () throws(BusError) in
                            let text = try reply.readString()
                            if first == nil { first = IPv4Address(text) }
                        }
                    } else {
                        try reply.skip("v")
                    }
                }
            }
        }
        return first
    }
}

extension BusReply {
    /// A NetworkManager profile as `a{sa{sv}}`.
    @discardableResult
    public func append(profile: NetworkManagerProfile) -> Self {
        container("a", "{sa{sv}}") { groups in
            for group in profile.groups {
                groups.container("e", "sa{sv}") { entry in
                    entry.append(group.name)
                    entry.container("a", "{sv}") { settings in
                        for (key, value) in group.settings {
                            settings.container("e", "sv") { $0.append(key).append(nmValue: value) }
                        }
                    }
                }
            }
        }
    }

    fileprivate func append(nmValue value: NetworkManagerProfile.Value) {
        switch value {
        case .string(let text): append(variant: .string(text))
        case .bool(let flag): append(variant: .bool(flag))
        case .uint32(let number): append(variant: .uint32(number))
        case .int32(let number): append(variant: .int32(number))
        case .bytes(let bytes): append(variant: .bytes(bytes))
        case .secret(let secret): append(variant: .string(secret.text))
        }
    }
}
