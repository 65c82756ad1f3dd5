import AccessoryCore
import AccessoryPlatform
import AccessoryWire

/// `org.accessoryagent.Accessory1` objects and the object manager: each
/// app sees its own accessories and sessions, and nothing else.
extension AccessoryService {
    func handleAccessory(_ call: BusMessage) -> BusConnection.MethodOutcome? {
        guard let path = call.path, let id = BusNames.accessory(at: path) else { return .error(Self.noSuchObject) }
        return withCaller(call) { [unowned self] caller in accessoryCall(call, id, caller) }
    }

    private func accessoryCall(_ call: BusMessage, _ id: AccessoryID, _ caller: Result<Caller, BusError>) -> BusConnection.MethodOutcome? {
        let grant: Grant
        do {
            let caller = try caller.get()
            // The administrator may look at any accessory; an app at its own only.
            let app: AppID? = caller.credentials.uid == 0 && caller.manifest == nil ? nil : caller.manifest?.app
            guard caller.manifest != nil || caller.credentials.uid == 0 else { return .error(Self.noSuchObject) }
            grant = try center.owned(id, by: app)
        } catch {
            return .error(Self.noSuchObject)
        }
        if let refused = wrongArgumentTypes(call, on: BusObjects.accessory) { return refused }
        switch call.interface {
        case BusNames.introspectable: return reply(call) { $0.append(IntrospectionXML.accessory) }
        case BusNames.properties: return properties(call, interface: BusNames.accessory, accessoryProperties(grant))
        default: return nil
        }
    }

    func accessoryProperties(_ grant: Grant) -> [(String, BusVariant)] {
        var values = WireAccessoryProperties()
        values.displayName = grant.displayName
        values.state = grant.state.rawValue
        values.app = "\(grant.app)"
        values.bluetoothAddress = grant.bluetooth.map { "\($0.address)" } ?? ""
        values.bluetoothAddressType = grant.bluetooth.map { "\($0.addressType)" } ?? ""
        values.ssid = grant.ssid?.bytes ?? []
        values.descriptor = grant.descriptor.map { DescriptorFields.fields(of: $0).map { BusVariant.Pair($0.key, $0.value) } } ?? []
        values.bridgingIdentifier = grant.bridgingIdentifier ?? ""
        values.present = center.isPresent(grant.accessory)
        values.rssi = BusRSSI.encode(center.rssi(of: grant.accessory))
        return values.variants
    }

    /// `GetManagedObjects`: the caller's sessions and its app's accessories.
    func managedObjects(_ call: BusMessage) -> BusConnection.MethodOutcome? {
        withCaller(call) { [unowned self] caller in
            guard case .success(let caller) = caller else { return .error(Self.noSuchObject) }
            return managedObjects(call, caller)
        }
    }

    private func managedObjects(_ call: BusMessage, _ caller: Caller) -> BusConnection.MethodOutcome? {
        let own = openSessions.filter { $0.owner == caller.sender || ($0.persistent && $0.app == caller.manifest?.app) }
        let grants = caller.manifest.map { center.grants(of: $0.app) } ?? []
        return reply(call) { reply in
            reply.container("a", Self.managedObject.signature) { objects in
                for session in own {
                    objects.container("e", Self.managedObject.contents) { entry in
                        entry.append(objectPath: session.path).container("a", Self.interfaceEntry.signature) { interfaces in
                            interfaces.container("e", Self.interfaceEntry.contents) {
                                $0.append(BusNames.session).append(properties: [
                                    (Session1.app.name, .string("\(session.app)")), (Session1.state.name, .string(session.state.rawValue)),
                                ])
                            }
                        }
                    }
                }
                for grant in grants {
                    objects.container("e", Self.managedObject.contents) { entry in
                        entry.append(objectPath: BusNames.path(of: grant.accessory)).container("a", Self.interfaceEntry.signature) { interfaces in
                            interfaces.container("e", Self.interfaceEntry.contents) {
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
        guard let grant = center.allGrants[id] else { return }
        for owner in owners(of: app) {
            try? connection.emitSignal(path: BusNames.root, interface: BusNames.objectManager, member: FreedesktopInterfaces.interfacesAdded.name,
                                       destination: owner) { signal in
                signal.append(objectPath: BusNames.path(of: id)).container("a", Self.interfaceEntry.signature) { interfaces in
                    interfaces.container("e", Self.interfaceEntry.contents) {
                        $0.append(BusNames.accessory).append(properties: self.accessoryProperties(grant))
                    }
                }
            }
        }
    }

    func accessoryDisappeared(_ id: AccessoryID, app: AppID) {
        for owner in owners(of: app) {
            try? connection.emitSignal(path: BusNames.root, interface: BusNames.objectManager, member: FreedesktopInterfaces.interfacesRemoved.name,
                                       destination: owner) { signal in
                signal.append(objectPath: BusNames.path(of: id)).append(strings: [BusNames.accessory])
            }
        }
    }

    /// Presence, to the app holding the grant only.
    func propertiesChanged(_ grant: Grant, present: Bool, rssi: Int?) {
        for owner in owners(of: grant.app) {
            try? connection.emitSignal(path: BusNames.path(of: grant.accessory), interface: BusNames.properties,
                                       member: FreedesktopInterfaces.propertiesChanged.name, destination: owner) { signal in
                var changed: [(String, BusVariant)] = [(Accessory1.present.name, .bool(present))]
                if let rssi { changed.append((Accessory1.rssi.name, .int32(BusRSSI.encode(rssi)))) }
                signal.append(BusNames.accessory).append(properties: changed).append(strings: [])
            }
        }
    }

    /// The properties a grant's change (a rename, authorization finished or
    /// updated) can change; presence has its own (`propertiesChanged`), and
    /// the rest are constant (Introspection says which).
    static let grantChangeable: Set<String> = Set([
        Accessory1.displayName, Accessory1.state, Accessory1.ssid, Accessory1.descriptor, Accessory1.bridgingIdentifier,
    ].map(\.name))

    /// After a grant changed: its new values, to the app holding it only,
    /// so a client's property cache (a GDBus proxy) follows a rename.
    func grantChanged(_ id: AccessoryID, app: AppID) {
        guard let grant = center.allGrants[id], grant.app == app else { return }
        let changed = accessoryProperties(grant).filter { Self.grantChangeable.contains($0.0) }
        for owner in owners(of: app) {
            try? connection.emitSignal(path: BusNames.path(of: id), interface: BusNames.properties,
                                       member: FreedesktopInterfaces.propertiesChanged.name, destination: owner) { signal in
                signal.append(BusNames.accessory).append(properties: changed).append(strings: [])
            }
        }
    }

    /// A session's `State` changed (activated, invalidated): to its connection only.
    func sessionStateChanged(_ session: ServiceSession) {
        try? connection.emitSignal(path: session.path, interface: BusNames.properties, member: FreedesktopInterfaces.propertiesChanged.name,
                                   destination: session.owner) { signal in
            signal.append(BusNames.session).append(properties: [(Session1.state.name, .string(session.state.rawValue))])
                .append(strings: [])
        }
    }

    /// `{oa{sa{sv}}}`, an object of `GetManagedObjects`, and `{sa{sv}}`, one of its interfaces.
    static let managedObject = FreedesktopInterfaces.getManagedObjects.outputs[0].type.element
    static let interfaceEntry = FreedesktopInterfaces.interfacesAndProperties.element

    /// The connections of `app`'s active sessions.
    private func owners(of app: AppID) -> Set<String> {
        Set(openSessions.filter { $0.app == app && $0.state == .active }.map(\.owner))
    }
}
