import AccessoryCore
import AccessoryPlatform

/// `org.accessoryagent.Accessory1` objects and the object manager: each
/// app sees its own accessories and sessions, and nothing else.
extension AccessoryService {
    func handleAccessory(_ call: BusMessage) -> BusConnection.MethodOutcome? {
        guard let path = call.path, let id = BusNames.accessory(at: path) else { return .error(Self.noSuchObject) }
        let grant: Grant
        do {
            let caller = try self.caller(call)
            // The administrator may look at any accessory; an app at its own only.
            let app: AppID? = caller.credentials.uid == 0 && caller.manifest == nil ? nil : caller.manifest?.app
            guard caller.manifest != nil || caller.credentials.uid == 0 else { return .error(Self.noSuchObject) }
            grant = try center.owned(id, by: app)
        } catch {
            return .error(Self.noSuchObject)
        }
        switch call.interface {
        case BusNames.introspectable: return reply(call) { $0.append(Introspection.accessory) }
        case BusNames.properties: return properties(call, interface: BusNames.accessory, accessoryProperties(grant))
        default: return nil
        }
    }

    func accessoryProperties(_ grant: Grant) -> [(String, BusVariant)] {
        [
            ("DisplayName", .string(grant.displayName)),
            ("State", .string(grant.state.rawValue)),
            ("App", .string("\(grant.app)")),
            ("BluetoothAddress", .string(grant.bluetooth.map { "\($0.address)" } ?? "")),
            ("BluetoothAddressType", .string(grant.bluetooth.map { "\($0.addressType)" } ?? "")),
            ("SSID", .bytes(grant.ssid?.bytes ?? [])),
            ("Descriptor", .pairs(grant.descriptor.map { DescriptorFields.fields(of: $0).map { BusVariant.Pair($0.key, $0.value) } } ?? [])),
            ("BridgingIdentifier", .string(grant.bridgingIdentifier ?? "")),
            ("Present", .bool(center.isPresent(grant.accessory))),
            ("RSSI", .int32(BusRSSI.encode(center.rssi(of: grant.accessory)))),
        ]
    }

    /// `GetManagedObjects`: the caller's sessions and its app's accessories.
    func managedObjects(_ call: BusMessage) -> BusConnection.MethodOutcome? {
        guard let caller = try? caller(call) else { return .error(Self.noSuchObject) }
        let own = openSessions.filter { $0.owner == caller.sender || ($0.persistent && $0.app == caller.manifest?.app) }
        let grants = caller.manifest.map { center.grants(of: $0.app) } ?? []
        return reply(call) { reply in
            reply.container("a", "{oa{sa{sv}}}") { objects in
                for session in own {
                    objects.container("e", "oa{sa{sv}}") { entry in
                        entry.append(objectPath: session.path).container("a", "{sa{sv}}") { interfaces in
                            interfaces.container("e", "sa{sv}") {
                                $0.append(BusNames.session).append(properties: [
                                    ("App", .string("\(session.app)")), ("State", .string(session.state.rawValue)),
                                ])
                            }
                        }
                    }
                }
                for grant in grants {
                    objects.container("e", "oa{sa{sv}}") { entry in
                        entry.append(objectPath: BusNames.path(of: grant.accessory)).container("a", "{sa{sv}}") { interfaces in
                            interfaces.container("e", "sa{sv}") {
                                $0.append(BusNames.accessory).append(properties: self.accessoryProperties(grant))
                            }
                        }
                    }
                }
            }
        }
    }

    /// The app's sessions learn of a new accessory object.
    func accessoryAppeared(_ id: AccessoryID, app: AppID) {
        guard let grant = center.store.grants[id] else { return }
        for owner in owners(of: app) {
            try? connection.emitSignal(path: BusNames.root, interface: BusNames.objectManager, member: "InterfacesAdded",
                                       destination: owner) { signal in
                signal.append(objectPath: BusNames.path(of: id)).container("a", "{sa{sv}}") { interfaces in
                    interfaces.container("e", "sa{sv}") {
                        $0.append(BusNames.accessory).append(properties: self.accessoryProperties(grant))
                    }
                }
            }
        }
    }

    func accessoryDisappeared(_ id: AccessoryID, app: AppID) {
        for owner in owners(of: app) {
            try? connection.emitSignal(path: BusNames.root, interface: BusNames.objectManager, member: "InterfacesRemoved",
                                       destination: owner) { signal in
                signal.append(objectPath: BusNames.path(of: id)).append(strings: [BusNames.accessory])
            }
        }
    }

    /// Presence, to the app holding the grant only.
    func propertiesChanged(_ grant: Grant, present: Bool, rssi: Int?) {
        for owner in owners(of: grant.app) {
            try? connection.emitSignal(path: BusNames.path(of: grant.accessory), interface: BusNames.properties,
                                       member: "PropertiesChanged", destination: owner) { signal in
                var changed: [(String, BusVariant)] = [("Present", .bool(present))]
                if let rssi { changed.append(("RSSI", .int32(BusRSSI.encode(rssi)))) }
                signal.append(BusNames.accessory).append(properties: changed).append(strings: [])
            }
        }
    }

    /// The properties a grant's change (a rename, authorization finished or
    /// updated) can change; presence has its own (`propertiesChanged`), and
    /// the rest are constant (Introspection says which).
    static let grantChangeable: Set<String> = ["DisplayName", "State", "SSID", "Descriptor", "BridgingIdentifier"]

    /// After a grant changed: its new values, to the app holding it only,
    /// so a client's property cache (a GDBus proxy) follows a rename.
    func grantChanged(_ id: AccessoryID, app: AppID) {
        guard let grant = center.store.grants[id], grant.app == app else { return }
        let changed = accessoryProperties(grant).filter { Self.grantChangeable.contains($0.0) }
        for owner in owners(of: app) {
            try? connection.emitSignal(path: BusNames.path(of: id), interface: BusNames.properties,
                                       member: "PropertiesChanged", destination: owner) { signal in
                signal.append(BusNames.accessory).append(properties: changed).append(strings: [])
            }
        }
    }

    /// A session's `State` changed (activated, invalidated): to its connection only.
    func sessionStateChanged(_ session: AccessorySession) {
        try? connection.emitSignal(path: session.path, interface: BusNames.properties, member: "PropertiesChanged",
                                   destination: session.owner) { signal in
            signal.append(BusNames.session).append(properties: [("State", .string(session.state.rawValue))])
                .append(strings: [])
        }
    }

    /// The connections of `app`'s active sessions.
    private func owners(of app: AppID) -> Set<String> {
        Set(openSessions.filter { $0.app == app && $0.state == .active }.map(\.owner))
    }
}
