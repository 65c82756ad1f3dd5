import AccessoryCore
import AccessoryPlatform
import AccessoryWire

/// Where each notice of the authorization center goes: signals to exactly
/// the sessions entitled to them, calls to the picker agent, and the
/// handles a removal revokes.
struct NoticeRouter {
    let sessions: SessionTable
    let signals: ServiceSignals
    let channels: ChannelHandler
    let hotspots: HotspotHandler
    let agent: PickerAgentCalls

    func deliver(_ notice: AuthorizationNotice) {
        switch notice {
        case .session(let number, let event):
            if let session = sessions[number], session.state != .invalidated { send(event, to: session) }
        case .app(let app, let event):
            if case .accessoryAdded(let id) = event { signals.accessoryAppeared(id, app: app) }
            // Properties first: a client told AccessoryChanged finds its cache current.
            if case .accessoryChanged(let id) = event { signals.grantChanged(id, app: app) }
            for session in sessions.open where session.app == app && session.state == .active { send(event, to: session) }
            if case .accessoryRemoved(let id) = event {
                // Removal revokes every handle the app holds on it.
                channels.revoke(accessory: id)
                for session in sessions.open where session.hotspot?.accessory == id {
                    hotspots.leave(of: session, why: "the accessory was removed")
                }
                signals.accessoryDisappeared(id, app: app)
            }
        case .agent(let event):
            agent.tell(event)
        case .presence(let grant, let present, let rssi):
            signals.presenceChanged(grant, present: present, rssi: rssi)
        case .advertisement(let grant, let rssi, let data):
            signals.advertisement(grant, rssi: rssi, data: data)
        }
    }

    /// A session event as its `Session1` signal, and as the `TakeEvents` entry a persistent session keeps.
    private func send(_ event: AuthorizationNotice.SessionEvent, to session: ServiceSession) {
        let type: AccessoryEventType
        var details: [(key: String, value: String)] = []
        var arguments: (BusReply) -> Void = { _ in }
        func accessory(_ id: AccessoryID) {
            let path = BusNames.path(of: id)
            details.append(("Accessory", path))
            arguments = { $0.append(objectPath: path) }
        }
        func error(_ error: AccessorySetupError?) {
            let name = error.map { BusErrorNames.name(of: $0.code) } ?? ""
            let message = error?.reason?.description ?? ""
            if error != nil { details += [("Error", name), ("Message", message)] }
            arguments = { $0.append(name).append(message) }
        }
        switch event {
        case .pickerDidPresent: type = .pickerDidPresent
        case .migrationComplete: type = .migrationComplete
        case .accessoryAdded(let id): type = .accessoryAdded; accessory(id)
        case .accessoryChanged(let id): type = .accessoryChanged; accessory(id)
        case .accessoryRemoved(let id): type = .accessoryRemoved; accessory(id)
        case .pickerSetupRename(let id): type = .pickerSetupRename; accessory(id)
        case .pickerSetupPairing(let id): type = .pickerSetupPairing; accessory(id)
        case .pickerSetupFailed(let failure): type = .pickerSetupFailed; error(failure)
        case .pickerDidDismiss(let failure): type = .pickerDidDismiss; error(failure)
        case .accessoryDiscovered(let candidate):
            type = .accessoryDiscovered
            details = [("Candidate", "\(candidate.number)"), ("Name", candidate.name),
                       ("Identity", "\(candidate.identity)"), ("RSSI", "\(BusRSSI.encode(candidate.rssi))"),
                       ("AdvertisingData", hexString(candidate.advertisingData))]
            let discovered = WireDiscoveredAccessory(
                candidate: candidate.number, name: candidate.name, identity: "\(candidate.identity)",
                rssi: BusRSSI.encode(candidate.rssi), advertisement: candidate.advertisingData)
            arguments = { discovered.append(to: $0) }
        }
        signals.event(session, type, details, arguments)
    }
}
