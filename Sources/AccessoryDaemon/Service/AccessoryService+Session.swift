import AccessoryCore
import AccessoryPlatform
import AccessoryWire

/// `org.accessoryagent.Session1`: what an app does with its session.
extension AccessoryService {
    func handleSession(_ call: BusMessage) -> BusConnection.MethodOutcome? {
        withSession(call) { [unowned self] session in
            // Another caller's session does not exist, as far as this caller can tell.
            guard let session, let sender = call.sender else { return .error(Self.noSuchObject) }
            return handleSession(call, session, sender: sender)
        }
    }

    private func handleSession(_ call: BusMessage, _ session: ServiceSession, sender: String) -> BusConnection.MethodOutcome? {
        session.calledBy(sender, at: clock.now)
        if let refused = wrongArgumentTypes(call, on: BusObjects.session) { return refused }
        switch (call.interface, call.member) {
        case (BusNames.introspectable, FreedesktopInterfaces.introspect.name):
            return reply(call) { $0.append(IntrospectionXML.session) }
        case (BusNames.properties, _):
            return properties(call, interface: BusNames.session,
                              [(Session1.app.name, .string("\(session.app)")), (Session1.state.name, .string(session.state.rawValue))])
        case (BusNames.session, let member?):
            return outcome { () throws(AccessorySetupError) in try sessionMethod(member, call, session) }
        default:
            return nil
        }
    }

    private func sessionMethod(_ member: String, _ call: BusMessage, _ session: ServiceSession) throws(AccessorySetupError) -> BusConnection.MethodOutcome? {
        try session.checkAlive()
        try admitRequest(session.app, member)
        switch member {
        case Session1.activate.name:
            let wasActive = session.state == .active
            try session.activate()
            let accessories = center.grants(of: session.app).map { BusNames.path(of: $0.accessory) }
            signal(session, .activated, [("Accessories", accessories.joined(separator: " "))]) { $0.append(objectPaths: accessories) }
            if !wasActive { sessionStateChanged(session) }
            return reply(call) { $0.append(objectPaths: accessories) }
        case Session1.invalidate.name:
            signal(session, .invalidated, []) { _ in }
            end(session, why: "invalidated by the app")
            return reply(call)
        case Session1.dismissPicker.name:
            // Needs neither activation nor the manifest: withdrawing takes nothing new.
            try center.withdraw(session: session.number)
            return reply(call)
        case Session1.takeEvents.name:
            let events = session.takeEvents().map { WireQueuedEvent(type: $0.type.rawValue, details: $0.details) }
            return reply(call) { $0.append(records: events) }
        default:
            break
        }
        // Everything else needs an activated session and the app's manifest as it is now.
        guard session.state == .active else {
            throw AccessorySetupError(.invalidRequest, reason: .message("activate the session first"))
        }
        guard let manifest = apps().manifests[session.app] else {
            throw AccessorySetupError(.activationFailed, reason: .message("\(session.app) no longer has an app manifest"))
        }
        switch member {
        case Session1.openBluetoothChannel.name:
            return try openBluetoothChannel(call, session)
        case Session1.joinHotspot.name:
            return try joinHotspot(call, session)
        case Session1.leaveHotspot.name:
            return try leaveHotspot(call, session)
        case Session1.observePresence.name:
            return try observePresence(call, session, manifest)
        case Session1.showPicker.name:
            // One budget for the call's arguments together (ArgumentBytes).
            let reader = LimitedArguments(call, limits: limits)
            let items = try BusArguments.displayItems(reader)
            let settings = try BusArguments.settings(reader)
            try center.showPicker(session: session.number, manifest: manifest, items: items, settings: settings)
        case Session1.migrate.name:
            try center.migrate(session: session.number, manifest: manifest, items: try BusArguments.migrationItems(call, limits: limits))
        case Session1.updatePicker.name:
            try center.updatePicker(session: session.number, manifest: manifest, shown: try BusArguments.shownCandidates(call, limits: limits))
        case Session1.finishPickerDiscovery.name:
            try center.finishDiscovery(session: session.number)
        case Session1.finishAuthorization.name:
            let id = try BusArguments.accessory(call)
            let settings = try BusArguments.authorizationSettings(call, limits: limits)
            try center.finishAuthorization(id, app: session.app, ssid: settings.ssid, bridgingIdentifier: settings.bridgingIdentifier)
        case Session1.failAuthorization.name:
            try center.failAuthorization(try BusArguments.accessory(call), app: session.app)
        case Session1.updateAuthorization.name:
            let id = try BusArguments.accessory(call)
            try center.updateAuthorization(id, manifest: manifest, descriptor: try BusArguments.descriptor(call, limits: limits))
        case Session1.removeAccessory.name:
            try center.remove(try BusArguments.accessory(call), app: session.app, by: .app(session.app))
        case Session1.renameAccessory.name:
            let id = try BusArguments.accessory(call)
            let renaming = try BusArguments.renaming(call, limits: limits)
            try center.rename(id, app: session.app, to: renaming.name, renameSSID: renaming.renameSSID, by: .app(session.app))
        default:
            return nil
        }
        return reply(call)
    }
}
