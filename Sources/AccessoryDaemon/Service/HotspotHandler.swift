import AccessoryCodecs
import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Logging

/// `Session1.JoinHotspot` and `LeaveHotspot`: joining a Wi-Fi accessory's
/// hotspot for its app. accessoryd drives NetworkManager or wpa_supplicant
/// (`HotspotJoiner` chooses; the app has no privilege to), tells the app the
/// result, and puts the interface back on its previous network when the app
/// leaves the hotspot, leaves the bus, or loses the accessory, or when the
/// link to the hotspot is lost (the app then gets `HotspotLeft`).
final class HotspotHandler {
    /// Joins for apps; nil without Wi-Fi.
    var joiner: HotspotJoiner?
    /// Which interface joins use (`[Wi-Fi] JoinInterface=` or the first one).
    var joinInterfaceChoice: () -> String? = { nil }
    private let connection: BusConnection
    private let center: AuthorizationCenter
    private let signals: ServiceSignals
    private let logger: Logger

    init(connection: BusConnection, center: AuthorizationCenter, signals: ServiceSignals, logger: Logger) {
        self.connection = connection
        self.center = center
        self.signals = signals
        self.logger = logger
    }

    /// `JoinHotspot(o accessory, s passphrase) → (s result, s interface, s address)`.
    /// An empty passphrase joins an open hotspot; a hotspot last heard as
    /// WPA3-SAE only gets it as an SAE password, any other as a WPA2 passphrase.
    func join(_ call: BusMessage, _ session: ServiceSession) throws(AccessorySetupError) -> BusConnection.MethodOutcome? {
        let id = try BusArguments.accessory(call)
        let passphrase = try BusArguments.read { () throws(BusError) in try call.readString() }
        let grant = try center.usableGrant(id, of: session)
        guard let ssid = grant.ssid else {
            throw AccessorySetupError(.invalidRequest, reason: .message("accessory \(DisplayText.escaped(grant.displayName)) is not a Wi-Fi accessory; a hotspot join needs one"))
        }
        // Checked before anything else, radios included: a wrong length is the
        // app's mistake whether or not there is a Wi-Fi interface, and never reaches wpa_supplicant.
        let credential: WPACredential
        do {
            if passphrase.isEmpty { credential = .open }
            else if center.hotspotSecurity(ssid).map({ $0.contains(.wpa3SAE) && !$0.contains(.wpa2PSK) }) == true {
                credential = .sae(try SAEPassword(passphrase))
            } else {
                credential = .wpa2(try WPAPassphrase(passphrase))
            }
        } catch {
            throw AccessorySetupError(.invalidRequest, reason: .message(error.refusal))
        }
        guard let joiner, let interface = joinInterfaceChoice() else {
            throw AccessorySetupError(.connectionFailed, reason: .message("no Wi-Fi interface to join with"))
        }
        do {
            let join = try joiner.join(ssid: ssid, credential: credential, interface: interface) { [weak self] result in
                self?.joined(result, call, session, grant, interface: interface)
            }
            join.whenLinkLost { [weak self] reason in
                guard let self, session.hotspot?.interface == interface else { return }
                leave(of: session, why: "the link to the hotspot was lost: \(reason)")
                // The app is told: its sockets on the hotspot are dead, and the interface is back on the uplink.
                signals.hotspotLeft(session, accessory: id, reason: reason)
            }
        } catch {
            throw AccessorySetupError(.connectionFailed, reason: .message("\(error)"))
        }
        return .deferred
    }

    private func joined(_ result: HotspotJoinResult, _ call: BusMessage, _ session: ServiceSession, _ grant: Grant, interface: String) {
        let id = grant.accessory
        var outcome = result
        if case .joined = result {
            // The app or its accessory may have gone while joining: nobody to hand it to.
            let gone = session.state != .active ? "the session ended"
                : (try? center.owned(id, by: session.app)) == nil ? "the accessory was removed" : nil
            if let gone {
                joiner?.leave(interface: interface)
                outcome = .failed(reason: gone)
            } else {
                session.hotspot = .init(accessory: id, interface: interface)
            }
        }
        logger.log(.hotspotJoinResult, level: .notice, "\(session.app)'s join of \(grant.displayName): \(outcome)",
                   metadata: ["app": "\(session.app)", "accessory.id": "\(id)", "wifi.interface": "\(interface)",
                              "wifi.join_result": "\(outcome)"])
        guard let reply = connection.reply(to: call) else { return }
        switch outcome {
        case .joined(let interface, let address): reply.append("joined").append(interface).append("\(address)")
        case .associationRejected: reply.append("association-rejected").append(interface).append("")
        case .failed: reply.append("failed").append(interface).append("")
        default: reply.append("\(outcome)").append(interface).append("")
        }
        connection.send(reply)
    }

    /// `LeaveHotspot(o accessory)`.
    func leave(_ call: BusMessage, _ session: ServiceSession) throws(AccessorySetupError) {
        let id = try BusArguments.accessory(call)
        let grant = try center.owned(id, by: session.app)
        guard session.hotspot?.accessory == id else {
            throw AccessorySetupError(.invalidRequest, reason: .message("accessory \(DisplayText.escaped(grant.displayName)): this session has not joined its hotspot"))
        }
        leave(of: session, why: "the app left the hotspot")
    }

    /// Ends the session's join, if it holds one, and says why in the journal:
    /// an operator wants to know whether the app, the bus or a removal ended it.
    func leave(of session: ServiceSession, why: String) {
        guard let joined = session.hotspot else { return }
        session.hotspot = nil
        logger.log(.hotspotJoinEnded, level: .notice, "Ended \(session.app)'s hotspot join on \(joined.interface): \(why)",
                   metadata: ["app": "\(session.app)", "accessory.id": "\(joined.accessory)",
                              "wifi.interface": "\(joined.interface)", "wifi.event": "hotspot-join-ended",
                              "wifi.leave_reason": "\(why)"])
        joiner?.leave(interface: joined.interface)
    }
}
