import AccessoryCore
import AccessoryPlatform

/// `org.accessoryagent.Session1`: what an app does with its session.
extension AccessoryService {
    func handleSession(_ call: BusMessage) -> BusConnection.MethodOutcome? {
        // Another caller's session does not exist, as far as this caller can tell.
        guard let session = session(for: call), let sender = call.sender else { return .error(Self.noSuchObject) }
        session.calledBy(sender, at: clock.now)
        switch (call.interface, call.member) {
        case (BusNames.introspectable, "Introspect"):
            return reply(call) { $0.append(Introspection.session) }
        case (BusNames.properties, _):
            return properties(call, interface: BusNames.session,
                              [("App", .string("\(session.app)")), ("State", .string(session.state.rawValue))])
        case (BusNames.session, let member?):
            return outcome { () throws(AccessorySetupError) in try sessionMethod(member, call, session) }
        default:
            return nil
        }
    }

    private func sessionMethod(_ member: String, _ call: BusMessage, _ session: AccessorySession) throws(AccessorySetupError) -> BusConnection.MethodOutcome? {
        try session.checkAlive()
        switch member {
        case "Activate":
            let wasActive = session.state == .active
            try session.activate()
            let accessories = center.grants(of: session.app).map { BusNames.path(of: $0.accessory) }
            signal(session, .activated, [("Accessories", accessories.joined(separator: " "))]) { $0.append(objectPaths: accessories) }
            if !wasActive { sessionStateChanged(session) }
            return reply(call) { $0.append(objectPaths: accessories) }
        case "Invalidate":
            signal(session, .invalidated, []) { _ in }
            end(session, why: "invalidated by the app")
            return reply(call)
        case "DismissPicker":
            // Needs neither activation nor the manifest: withdrawing takes nothing new.
            try center.withdraw(session: session.number)
            return reply(call)
        case "TakeEvents":
            let events = session.takeEvents()
            return reply(call) { reply in
                reply.container("a", "(sa{ss})") { array in
                    for event in events {
                        array.container("r", "sa{ss}") { $0.append(event.type.rawValue).append(pairs: event.details) }
                    }
                }
            }
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
        case "OpenBluetoothChannel":
            return try openBluetoothChannel(call, session)
        case "JoinHotspot":
            return try joinHotspot(call, session)
        case "LeaveHotspot":
            return try leaveHotspot(call, session)
        case "ShowPicker":
            // One budget for the call's arguments together (ArgumentBytes).
            let reader = LimitedArguments(call, limits: limits)
            let items = try BusArguments.displayItems(reader)
            let settings = try BusArguments.settings(reader)
            try center.showPicker(session: session.number, manifest: manifest, items: items, settings: settings)
        case "Migrate":
            try center.migrate(session: session.number, manifest: manifest, items: try BusArguments.migrationItems(call, limits: limits))
        case "UpdatePicker":
            try center.updatePicker(session: session.number, shown: try BusArguments.shownCandidates(call, limits: limits))
        case "FinishPickerDiscovery":
            try center.finishDiscovery(session: session.number)
        case "FinishAuthorization":
            let id = try BusArguments.accessory(call)
            var ssid: SSID?
            var bridging: String?
            for (key, value) in try BusArguments.pairs(call, "authorization settings", limits: limits) {
                switch key {
                case "SSID":
                    var probe = DiscoveryDescriptor()
                    do { try DescriptorFields.apply(key: "SSID", value: value, to: &probe) } catch {
                        throw BusArguments.invalid("\(error)")
                    }
                    ssid = probe.ssid
                case "BridgingIdentifier": bridging = value
                default: throw BusArguments.invalid("unknown authorization setting \(key) (SSID, BridgingIdentifier)")
                }
            }
            try center.finishAuthorization(id, app: session.app, ssid: ssid, bridgingIdentifier: bridging)
        case "FailAuthorization":
            try center.failAuthorization(try BusArguments.accessory(call), app: session.app)
        case "UpdateAuthorization":
            let id = try BusArguments.accessory(call)
            try center.updateAuthorization(id, manifest: manifest, descriptor: try BusArguments.descriptor(call, limits: limits))
        case "RemoveAccessory":
            try center.remove(try BusArguments.accessory(call), app: session.app, by: .app(session.app))
        case "RenameAccessory":
            let id = try BusArguments.accessory(call)
            let reader = LimitedArguments(call, limits: limits)
            let name = try BusArguments.read { () throws(BusError) in try reader.string("a name") }
            let options = try BusArguments.read { () throws(BusError) in try reader.strings("rename options") }
            guard options.allSatisfy({ $0 == "ssid" }) else { throw BusArguments.invalid("unknown rename option (ssid)") }
            try center.rename(id, app: session.app, to: name, renameSSID: options.contains("ssid"), by: .app(session.app))
        default:
            return nil
        }
        return reply(call)
    }
}
