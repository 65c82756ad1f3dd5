/// The heart of the API as a value without I/O: setup requests, the
/// decisions on them, and the grants they produce. Every input comes with
/// the current instant (and, for what the radios heard, the registry and the
/// matching index as they are now) and returns an `AuthorizationDecision`;
/// the daemon's adapter makes grant writes durable, logs, delivers notices
/// and arms `nextDeadline`. No clock, no timer, no file, no log of its own,
/// so every rule is tested in-process with a manual clock.
///
/// Transactions: an input that decides a grant write changes this value
/// only in the copy the adapter keeps once the write succeeded; on failure
/// the adapter keeps the old value, so nothing is half done.
public struct AuthorizationCore: Sendable {
    public internal(set) var requests = RequestBook()
    public internal(set) var grants: GrantBook
    public internal(set) var windows = ApprovalWindows()
    public internal(set) var agents = PickerAgentSlot()
    /// Which granted accessories their apps were last told are present.
    public internal(set) var presence = GrantPresenceReport()
    var ids: AccessoryIDGenerator
    /// Approved requests whose accessory is being paired, by request number.
    public internal(set) var pairings: [UInt32: PendingPairing] = [:]

    public init(grants: [AccessoryID: Grant], idSeed: UInt64) {
        self.grants = GrantBook(grants)
        ids = AccessoryIDGenerator(seed: idSeed)
    }

    public var agent: PickerAgent? { agents.agent }

    public var demand: AuthorizationDemand { AuthorizationDemand(requests: requests, grants: grants) }

    /// When `deadlineReached` next has something to do: a discovery
    /// timeout, an approval window closing, or a granted accessory going
    /// silent for longer than the registry allows it.
    public func nextDeadline(registry: AccessoryRegistry) -> MonotonicInstant? {
        var deadlines = [requests.nextDeadline, windows.nextDeadline].compactMap { $0 }
        for id in presence.reported {
            if let grant = grants[id], let silent = GrantPresence.absentAfter(grant, in: registry) { deadlines.append(silent) }
        }
        return deadlines.min()
    }

    // MARK: Who decided, as the journal records it (`DECIDED_BY=`)

    public static let policyDecider = "policy (approval window)"
    public static func appDecider(_ app: AppID) -> String { "app \(app)" }

    // MARK: Asking

    /// `showPicker`: validates every item against the descriptor rules and
    /// the app's manifest, then opens a request.
    public mutating func showPicker(
        session: UInt64, manifest: AppManifest, items: [PickerDisplayItem], settings: PickerDisplaySettings,
        at now: MonotonicInstant
    ) throws(AccessorySetupError) -> (number: UInt32, decision: AuthorizationDecision) {
        guard !items.isEmpty, items.count <= 0xFFFF else {
            throw AccessorySetupError(.invalidRequest, reason: .message("items: \(items.count) given; give at least one display item, and no more than 65535"))
        }
        var items = items
        for index in items.indices {
            do throws(DiscoveryDescriptorError) { try items[index].descriptor.validate() } catch { throw .invalidRequest(error) }
            try manifest.admit(items[index].descriptor)
            items[index].productImagePath = try manifest.productImage(for: items[index].productImagePath)
        }
        try requests.checkNone(for: manifest.app)
        let request = requests.open(app: manifest.app, session: session, kind: .picker(items), settings: settings, at: now)
        var decision = opened(request)
        decision.indexChanges = RequestBook.descriptors(of: request).map { .insert($0.0, $0.1) }
        decision.followUp(.offerRecentlyHeard(request.number))
        return (request.number, decision)
    }

    /// Migration: accessories the gateway already knows, registered for the
    /// app once approved. An item whose device is already granted (to this
    /// app or another) is taken like any other and skipped at approval: the
    /// answer must not tell an app whether another app's accessory exists.
    public mutating func migrate(
        session: UInt64, manifest: AppManifest, items: [MigrationItem], at now: MonotonicInstant
    ) throws(AccessorySetupError) -> (number: UInt32, decision: AuthorizationDecision) {
        guard !items.isEmpty else { throw AccessorySetupError(.invalidRequest, reason: .message("items: none given; give at least one migration item")) }
        for item in items where item.descriptor != DiscoveryDescriptor() {
            do throws(DiscoveryDescriptorError) { try item.descriptor.validate() } catch { throw .invalidRequest(error) }
            try manifest.admit(item.descriptor)
        }
        try requests.checkNone(for: manifest.app)
        let request = requests.open(app: manifest.app, session: session, kind: .migration(items),
                                    settings: PickerDisplaySettings(discoveryTimeout: .unbounded), at: now)
        // No approval window for a migration: it waits for an administrator (`approveByPolicy`).
        return (request.number, opened(request))
    }

    private func opened(_ request: SetupRequest) -> AuthorizationDecision {
        var decision = AuthorizationDecision()
        decision.log(.setupRequested, .notice,
                     "\(request.app) asks for \(request.isMigration ? "migration of " : "")\(request.itemNames.joined(separator: ", "))",
                     ["app": "\(request.app)", "request": "\(request.number)", "items": .array(request.itemNames)])
        decision.notify(.session(request.session, .pickerDidPresent))
        decision.notify(.agent(.requestAdded(request)))
        for candidate in request.candidates { decision.notify(.agent(.candidateAdded(request, candidate))) }
        return decision
    }

    /// `updatePicker(showing:)`. A shown image must be one of `manifest`'s
    /// (when given), as a display item's must.
    public mutating func updatePicker(
        session: UInt64, manifest: AppManifest? = nil, shown: [(candidate: UInt32, name: String, image: String)]
    ) throws(AccessorySetupError) -> AuthorizationDecision {
        guard var request = requests.request(ofSession: session) else {
            throw AccessorySetupError(.invalidRequest, reason: .message("no picker is open"))
        }
        if let manifest {
            for entry in shown where !entry.image.isEmpty { _ = try manifest.productImage(for: entry.image) }
        }
        var decision = AuthorizationDecision()
        for entry in shown {
            let wasVisible = request.candidate(entry.candidate)?.visible ?? false
            try request.show(entry.candidate, name: entry.name, productImagePath: entry.image)
            requests.update(request)
            if !wasVisible, let candidate = request.candidate(entry.candidate) {
                decision.notify(.agent(.candidateAdded(request, candidate)))
            }
        }
        if shown.contains(where: { request.candidate($0.candidate)?.visible == true }) {
            decision.followUp(.approveByPolicy(request.number))
        }
        return decision
    }

    /// `finishPickerDiscovery()`.
    public mutating func finishDiscovery(session: UInt64) throws(AccessorySetupError) -> AuthorizationDecision {
        guard let request = requests.request(ofSession: session) else {
            throw AccessorySetupError(.invalidRequest, reason: .message("no picker is open"))
        }
        var decision = AuthorizationDecision()
        endDiscovery(request.number, why: "the app finished discovery with nothing to show", into: &decision)
        return decision
    }

    /// Discovery ends (asked, or its deadline): with nothing to pick from the
    /// app hears `discoveryTimeout`, ASK's nearest error, and the agent that
    /// it ended; with candidates, they stay for the decision.
    mutating func endDiscovery(_ number: UInt32, why: String, into decision: inout AuthorizationDecision) {
        guard var request = requests[number] else { return }
        switch request.endDiscovery() {
        case .candidatesKept:
            requests.update(request)
            stopDiscovering(request, into: &decision)
        case .nothingFound:
            close(request, into: &decision)
            decision.log(.requestTimedOut, .notice, "\(request.app)'s request \(request.number) found nothing: \(why)",
                         ["app": "\(request.app)", "request": "\(request.number)",
                          "timeout": "\(request.settings.discoveryTimeout.text)"])
            decision.notify(.session(request.session, .pickerDidDismiss(AccessorySetupError(.discoveryTimeout, reason: .message(why)))))
            decision.notify(.agent(.requestEnded(request.number, outcome: "timed out")))
        }
    }

    /// The session went (invalidated, or its caller left): its request ends unanswered.
    public mutating func sessionEnded(_ session: UInt64) -> AuthorizationDecision {
        var decision = AuthorizationDecision()
        guard let request = requests.request(ofSession: session) else { return decision }
        close(request, into: &decision)
        decision.log(.requestEnded, .info, "\(request.app)'s request \(request.number) ended with its session",
                     ["app": "\(request.app)", "request": "\(request.number)"])
        decision.notify(.agent(.requestEnded(request.number, outcome: "cancelled")))
        return decision
    }

    mutating func close(_ request: SetupRequest, into decision: inout AuthorizationDecision) {
        requests.close(request.number)
        stopDiscovering(request, into: &decision)
        // Ended before its pairing did: the pairing stops and keeps nothing.
        if pairings.removeValue(forKey: request.number) != nil { decision.pairing.append(.cancel(request: request.number)) }
    }

    func stopDiscovering(_ request: SetupRequest, into decision: inout AuthorizationDecision) {
        decision.indexChanges += RequestBook.descriptors(of: request).map { .remove($0.0) }
    }
}
