import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Logging

/// `org.accessoryagent.Admin1`: the administrator's side (accessoryctl, a
/// picker agent's answers). For root and the members of the administrator
/// group, checked here as well as in the bus policy.
extension AccessoryService {
    func handleAdmin(_ call: BusMessage) -> BusConnection.MethodOutcome? {
        // The groups come with the uid, in the one answer of the bus daemon
        // (recorded when the caller connected), asked without waiting.
        withCaller(call) { [unowned self] caller in
            switch caller {
            case .success(let caller): adminCall(call, caller)
            case .failure(let error): .error(error)
            }
        }
    }

    private func adminCall(_ call: BusMessage, _ caller: Caller) -> BusConnection.MethodOutcome? {
        guard administrators.admits(caller.credentials) else { return askPolkit(call, caller) }
        return admitted(call, caller)
    }

    /// Neither root nor a member of the group: polkit's action
    /// `org.accessoryagent.administer` decides, asked without waiting.
    private func askPolkit(_ call: BusMessage, _ caller: Caller) -> BusConnection.MethodOutcome? {
        polkit.check(sender: caller.sender) { [weak self] answer in
            guard let self else { return }
            switch answer {
            case .allowed:
                connection.finish(call, with: admitted(call, caller))
            case .refused:
                connection.finish(call, with: .error(BusError(name: BusErrorNames.accessDenied, message: administrators.refusal
                    + " and users polkit allows \(PolkitAuthority.action)")))
            case .unavailable(let why):
                let line: Logger.Message = "polkit could not say whether uid \(caller.credentials.uid) may use Admin1, so it was refused: \(why)"
                if polkit.isNewProblem(why) { logger.warning(line) } else { logger.debug(line) }
                connection.finish(call, with: .error(BusError(name: BusErrorNames.accessDenied, message: administrators.refusal)))
            }
        }
        return .deferred
    }

    private func admitted(_ call: BusMessage, _ caller: Caller) -> BusConnection.MethodOutcome? {
        // An agent's answers are recorded as the agent's; anyone else's as the
        // administrator's, by the caller's own uid (a group member's, not root's).
        let decider: Decider = center.agent?.name == caller.sender ? .agent(caller.sender) : .administrator(uid: caller.credentials.uid, name: caller.credentials.userName)
        return outcome { () throws(AccessorySetupError) in try adminMethod(call, caller, decider) }
    }

    private func adminMethod(_ call: BusMessage, _ caller: Caller, _ decider: Decider) throws(AccessorySetupError) -> BusConnection.MethodOutcome? {
        func u() throws(AccessorySetupError) -> UInt32 { try BusArguments.read { () throws(BusError) in try call.readUInt32() } }
        func s() throws(AccessorySetupError) -> String { try BusArguments.read { () throws(BusError) in try call.readString() } }
        func accessoryID() throws(AccessorySetupError) -> AccessoryID {
            let text = try s()
            guard let id = AccessoryID(text) else { throw BusArguments.unknownAccessory(text) }
            return id
        }
        switch call.member {
        case Admin1.listRequests.name:
            let now = scheduler.now
            let requests = center.requests.values.sorted { $0.number < $1.number }.map { $0.wireRow(at: now) }
            return reply(call) { $0.append(records: requests) }
        case Admin1.listCandidates.name:
            let number = try u()
            guard let request = center.requests[number] else { throw BusArguments.invalid("no pending request \(number)") }
            let candidates = request.visibleCandidates.map { request.wireRow(of: $0) }
            return reply(call) { $0.append(records: candidates) }
        case Admin1.approve.name:
            let number = try u()
            let candidate = try u()
            let name = try s()
            let ids = try center.approve(number, candidate: candidate, name: name, by: decider)
            return reply(call) { $0.append(objectPath: ids.first.map { BusNames.path(of: $0) } ?? BusNames.accessories) }
        case Admin1.deny.name:
            try center.deny(try u(), by: decider)
        case Admin1.listAccessories.name:
            let grants = center.allGrants.values.sorted { $0.accessory < $1.accessory }.map { grant in
                WireAccessoryRow(id: "\(grant.accessory)", app: "\(grant.app)", name: grant.displayName,
                                 state: grant.state.rawValue, identity: DeviceIdentity(grant).map { "\($0)" } ?? "")
            }
            return reply(call) { $0.append(records: grants) }
        case Admin1.removeAccessory.name:
            try center.remove(try accessoryID(), app: nil, by: decider)
        case Admin1.renameAccessory.name:
            let id = try accessoryID()
            try center.rename(id, app: nil, to: try s(), renameSSID: false, by: decider)
        case Admin1.allow.name:
            let app = AppID(try s())
            let seconds = try u()
            guard apps().manifests[app] != nil else {
                throw BusArguments.invalid("app \(BusArguments.shown("\(app)")): no app of that name has a manifest; Allow needs one that has")
            }
            guard seconds > 0 else { throw BusArguments.invalid("seconds: 0; a window needs at least one second") }
            center.allow(app, for: .seconds(Int64(seconds)), by: decider)
        case Admin1.disallow.name:
            center.disallow(AppID(try s()), by: decider)
        case Admin1.registerAgent.name:
            let path = try BusArguments.read { () throws(BusError) in try call.readObjectPath() }
            try center.registerAgent(name: caller.sender, path: path)
            try? connection.whenSenderLeaves(call) { [weak self] in
                _ = self?.center.unregisterAgent(name: caller.sender, reason: "left the bus")
            }
        case Admin1.unregisterAgent.name:
            _ = try BusArguments.read { () throws(BusError) in try call.readObjectPath() }
            guard center.unregisterAgent(name: caller.sender, reason: "unregistered") else {
                throw BusArguments.invalid("this connection has no agent registered")
            }
        default:
            return nil
        }
        return reply(call)
    }

    /// Looks the administrator group up again (on SIGHUP): a group created,
    /// removed or renumbered since the start takes effect without a restart.
    public func resolveAdministratorGroup() {
        administrators = Self.lookUpAdministrators(administrators.name, logger: logger)
        callers.forgetUserNames()
    }

    /// The group by name, and a journal line saying who may use Admin1 now.
    static func lookUpAdministrators(_ name: String, logger: Logger) -> AdministratorGroup {
        do {
            guard let gid = try UnixGroup.gid(named: name) else {
                logger.log(.administratorsResolved, level: .notice, "Group \(name) does not exist: Admin1 is for root only",
                           metadata: ["admin.group": "\(name)"])
                return AdministratorGroup(name: name, gid: nil)
            }
            logger.log(.administratorsResolved, level: .info, "Admin1 is for root and members of group \(name) (gid \(gid))",
                       metadata: ["admin.group": "\(name)", "admin.gid": "\(gid)"])
            return AdministratorGroup(name: name, gid: gid)
        } catch {
            logger.log(.administratorsResolved, level: .warning, "Cannot look up group \(name), so Admin1 is for root only: \(error)",
                       metadata: ["admin.group": "\(name)", "error": "\(error)"])
            return AdministratorGroup(name: name, gid: nil)
        }
    }

    /// Tells the picker agent, without waiting for it.
    func tellAgent(_ event: AuthorizationNotice.AgentEvent) {
        guard let agent = center.agent else { return }
        func send(_ method: BusMethod, _ build: (BusReply) -> Void) {
            do {
                try connection.send(destination: agent.name, path: agent.path, interface: BusNames.pickerAgent,
                                    member: method.name, build)
            } catch {
                logger.warning("Cannot reach the picker agent \(agent.name): \(error)", metadata: ["agent": "\(agent.name)"])
            }
        }
        switch event {
        case .requestAdded(let request):
            send(PickerAgent1.requestAdded) {
                $0.append(request.number).append("\(request.app)").append(strings: request.itemNames).append(strings: request.itemImages)
            }
        case .candidateAdded(let request, let candidate):
            send(PickerAgent1.candidateAdded) {
                $0.append(request.number).append(candidate.number).append(request.itemName(of: candidate))
                    .append(candidate.name).append("\(candidate.identity)").append(BusRSSI.encode(candidate.rssi))
                    .append(request.image(of: candidate))
            }
        case .requestEnded(let number, let outcome):
            send(PickerAgent1.requestEnded) { $0.append(number).append(outcome) }
        }
    }
}
