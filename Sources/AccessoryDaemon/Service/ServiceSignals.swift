import AccessoryCore
import AccessoryPlatform
import AccessoryWire

/// The signals the service sends, each to the connections entitled to it
/// only; every one is named by its declaration in AccessoryWire, never by a string.
struct ServiceSignals {
    let connection: BusConnection
    let sessions: SessionTable
    let center: AuthorizationCenter

    /// A `Session1` event: queued for `TakeEvents` (persistent sessions) and sent to the session's connection.
    func event(_ session: ServiceSession, _ type: AccessoryEventType, _ details: [(key: String, value: String)],
               _ arguments: (BusReply) -> Void) {
        guard let declared = Session1.signal(for: type) else { return }
        session.enqueue(type, details)
        emit(declared, path: session.path, interface: BusNames.session, to: session.owner, arguments)
    }

    /// The service ended the session's hotspot join (the link was lost).
    func hotspotLeft(_ session: ServiceSession, accessory: AccessoryID, reason: String) {
        emit(Session1.hotspotLeft, path: session.path, interface: BusNames.session, to: session.owner) {
            $0.append(objectPath: BusNames.path(of: accessory)).append(reason)
        }
    }

    /// An advertisement of a granted accessory, to its app's active sessions.
    func advertisement(_ grant: Grant, rssi: Int?, data: [UInt8]) {
        for session in sessions.open where session.app == grant.app && session.state == .active {
            emit(Accessory1.advertisement, path: BusNames.path(of: grant.accessory), interface: BusNames.accessory, to: session.owner) {
                $0.append(BusRSSI.encode(rssi)).append(bytes: data)
            }
        }
    }

    /// A session's `State` changed (activated, invalidated): to its connection only.
    func sessionStateChanged(_ session: ServiceSession) {
        emit(FreedesktopInterfaces.propertiesChanged, path: session.path, interface: BusNames.properties, to: session.owner) {
            $0.append(BusNames.session).append(properties: [(Session1.state.name, .string(session.state.rawValue))])
                .append(strings: [])
        }
    }

    /// Presence, to the app holding the grant only.
    func presenceChanged(_ grant: Grant, present: Bool, rssi: Int?) {
        var changed: [(String, BusVariant)] = [(Accessory1.present.name, .bool(present))]
        if let rssi { changed.append((Accessory1.rssi.name, .int32(BusRSSI.encode(rssi)))) }
        accessoryPropertiesChanged(grant.accessory, app: grant.app, changed)
    }

    /// After a grant changed: its new values, to the app holding it only,
    /// so a client's property cache (a GDBus proxy) follows a rename.
    func grantChanged(_ id: AccessoryID, app: AppID) {
        guard let grant = center.allGrants[id], grant.app == app else { return }
        let changed = AccessoryPropertyValues.of(grant, center: center).filter { AccessoryPropertyValues.grantChangeable.contains($0.0) }
        accessoryPropertiesChanged(id, app: app, changed)
    }

    private func accessoryPropertiesChanged(_ id: AccessoryID, app: AppID, _ changed: [(String, BusVariant)]) {
        for owner in sessions.owners(of: app) {
            emit(FreedesktopInterfaces.propertiesChanged, path: BusNames.path(of: id), interface: BusNames.properties, to: owner) {
                $0.append(BusNames.accessory).append(properties: changed).append(strings: [])
            }
        }
    }

    /// The app's sessions learn of a new accessory object.
    func accessoryAppeared(_ id: AccessoryID, app: AppID) {
        guard let grant = center.allGrants[id] else { return }
        let properties = AccessoryPropertyValues.of(grant, center: center)
        for owner in sessions.owners(of: app) {
            emit(FreedesktopInterfaces.interfacesAdded, path: BusNames.root, interface: BusNames.objectManager, to: owner) { signal in
                signal.append(objectPath: BusNames.path(of: id)).container("a", AccessoryPropertyValues.interfaceEntry.signature) { interfaces in
                    interfaces.container("e", AccessoryPropertyValues.interfaceEntry.contents) {
                        $0.append(BusNames.accessory).append(properties: properties)
                    }
                }
            }
        }
    }

    func accessoryDisappeared(_ id: AccessoryID, app: AppID) {
        for owner in sessions.owners(of: app) {
            emit(FreedesktopInterfaces.interfacesRemoved, path: BusNames.root, interface: BusNames.objectManager, to: owner) {
                $0.append(objectPath: BusNames.path(of: id)).append(strings: [BusNames.accessory])
            }
        }
    }

    private func emit(_ signal: BusSignal, path: String, interface: String, to destination: String, _ build: (BusReply) -> Void) {
        try? connection.emitSignal(path: path, interface: interface, member: signal.name, destination: destination, build)
    }
}
