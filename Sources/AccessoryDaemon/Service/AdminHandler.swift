import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Logging

/// `org.accessoryagent.Admin1`: the administrator's side (accessoryctl, a
/// picker agent's answers). For root, the members of the administrator
/// group, and whom polkit allows; checked here, since the bus policy lets anyone send.
final class AdminHandler {
    /// Who besides root may use Admin1; looked up at start and on reload
    /// (`resolveAdministratorGroup`), not per call, so a slow NSS never holds up the bus.
    private(set) var administrators: AdministratorGroup
    private let connection: BusConnection
    private let replies: ServiceReplies
    private let callers: CallerResolver
    private let center: AuthorizationCenter
    private let apps: () -> AppManifestCatalog
    /// The instant a request's time left is counted from.
    private let scheduler: any Scheduler
    private let logger: Logger
    /// Asked about callers who are neither root nor in `administrators`.
    private lazy var polkit = PolkitAuthority(connection: connection)

    init(connection: BusConnection, callers: CallerResolver, center: AuthorizationCenter,
         apps: @escaping () -> AppManifestCatalog, scheduler: any Scheduler, administratorGroup: String, logger: Logger) {
        administrators = Self.lookUpAdministrators(administratorGroup, logger: logger)
        self.connection = connection
        replies = ServiceReplies(connection: connection)
        self.callers = callers
        self.center = center
        self.apps = apps
        self.scheduler = scheduler
        self.logger = logger
    }

    func handle(_ call: BusMessage) -> BusConnection.MethodOutcome? {
        // The groups come with the uid, in the one answer of the bus daemon
        // (recorded when the caller connected), asked without waiting.
        callers.withKnownCaller(call) { [unowned self] caller in
            guard administrators.admits(caller.credentials) else { return askPolkit(call, caller) }
            return admitted(call, caller)
        }
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
        guard let method = Admin1.Method(member: call.member) else { return nil }
        return ServiceReplies.outcome { () throws(AccessorySetupError) in try perform(method, call, caller, decider) }
    }

    private func perform(_ method: Admin1.Method, _ call: BusMessage, _ caller: Caller, _ decider: Decider) throws(AccessorySetupError) -> BusConnection.MethodOutcome? {
        func u() throws(AccessorySetupError) -> UInt32 { try BusArguments.read { () throws(BusError) in try call.readUInt32() } }
        func s() throws(AccessorySetupError) -> String { try BusArguments.read { () throws(BusError) in try call.readString() } }
        func accessoryID() throws(AccessorySetupError) -> AccessoryID {
            let text = try s()
            guard let id = AccessoryID(text) else { throw BusArguments.unknownAccessory(text) }
            return id
        }
        switch method {
        case .listRequests:
            let now = scheduler.now
            let requests = center.requests.values.sorted { $0.number < $1.number }.map { $0.wireRow(at: now) }
            return replies.reply(call) { $0.append(records: requests) }
        case .listCandidates:
            let number = try u()
            guard let request = center.requests[number] else { throw BusArguments.invalid("no pending request \(number)") }
            let candidates = request.visibleCandidates.map { request.wireRow(of: $0) }
            return replies.reply(call) { $0.append(records: candidates) }
        case .approve:
            let number = try u()
            let candidate = try u()
            let name = try s()
            let ids = try center.approve(number, candidate: candidate, name: name, by: decider)
            return replies.reply(call) { $0.append(objectPath: ids.first.map { BusNames.path(of: $0) } ?? BusNames.accessories) }
        case .deny:
            try center.deny(try u(), by: decider)
        case .listAccessories:
            let grants = center.allGrants.values.sorted { $0.accessory < $1.accessory }.map { grant in
                WireAccessoryRow(id: "\(grant.accessory)", app: "\(grant.app)", name: grant.displayName,
                                 state: grant.state.rawValue, identity: DeviceIdentity(grant).map { "\($0)" } ?? "",
                                 present: center.isPresent(grant.accessory),
                                 secondsSinceHeard: center.secondsSinceHeard(grant.accessory).map { Int32(clamping: $0) } ?? -1)
            }
            return replies.reply(call) { $0.append(records: grants) }
        case .removeAccessory:
            try center.remove(try accessoryID(), app: nil, by: decider)
        case .renameAccessory:
            let id = try accessoryID()
            try center.rename(id, app: nil, to: try s(), renameSSID: false, by: decider)
        case .allow:
            let app = AppID(try s())
            let seconds = try u()
            guard apps().manifests[app] != nil else {
                throw BusArguments.invalid("app \(BusArguments.shown("\(app)")): no app of that name has a manifest; Allow needs one that has")
            }
            guard seconds > 0 else { throw BusArguments.invalid("seconds: 0; a window needs at least one second") }
            center.allow(app, for: .seconds(Int64(seconds)), by: decider)
        case .disallow:
            center.disallow(AppID(try s()), by: decider)
        case .registerAgent:
            let path = try BusArguments.read { () throws(BusError) in try call.readObjectPath() }
            try center.registerAgent(name: caller.sender, path: path)
            try? connection.whenSenderLeaves(call) { [weak center = self.center] in
                _ = center?.unregisterAgent(name: caller.sender, reason: "left the bus")
            }
        case .listPairingQuestions:
            let now = scheduler.now
            let rows = center.pairingQuestions.map { open in
                let (kind, number) = WirePairingQuestion.kindAndNumber(of: open.question.prompt)
                let left = open.question.deadline.map { Int32(clamping: Int64(max(.zero, $0.duration(since: now)) / .seconds(1))) }
                return WirePairingQuestion(request: open.question.id.request, prompt: open.question.id.prompt, kind: kind, number: number,
                                           accessoryName: open.pending.name, approver: "\(open.approver)",
                                           secondsLeft: left ?? WirePairingQuestion.noDeadline)
            }
            return replies.reply(call) { $0.append(records: rows) }
        case .answerPairing:
            let id = PairingQuestion.ID(request: try u(), prompt: try u())
            let text = try s()
            do throws(PairingAnswerError) {
                // Longer than any answer: refused before it is read, and never echoed (it may be a passkey).
                guard text.utf8.count <= 16, let answer = PairingAnswer(text: text) else { throw .invalidAnswer }
                try center.answerPairing(answer, to: id, by: decider)
            } catch {
                return .error(BusError(name: BusErrorNames.name(of: error), message: error.description))
            }
        case .unregisterAgent:
            _ = try BusArguments.read { () throws(BusError) in try call.readObjectPath() }
            guard center.unregisterAgent(name: caller.sender, reason: "unregistered") else {
                throw BusArguments.invalid("this connection has no agent registered")
            }
        }
        return replies.reply(call)
    }

    /// Looks the administrator group up again (on SIGHUP): a group created,
    /// removed or renumbered since the start takes effect without a restart.
    func resolveAdministratorGroup() {
        administrators = Self.lookUpAdministrators(administrators.name, logger: logger)
    }

    /// The group by name, and a journal line saying who may use Admin1 now.
    private static func lookUpAdministrators(_ name: String, logger: Logger) -> AdministratorGroup {
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
}
