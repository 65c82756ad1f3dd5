import AccessoryCore
import AccessoryPlatform
import Logging

/// The heart of the API: setup requests, the decisions on them, and the
/// grants they produce. It knows nothing of D-Bus: the service calls in with
/// already-identified apps and receives `AuthorizationNotice`s to deliver.
/// Owned by the event loop's thread.
public final class AuthorizationCenter {
    public let store: GrantStore
    private let pipeline: DiscoveryPipeline
    private let logger: Logger
    private let notify: (AuthorizationNotice) -> Void
    /// Arms the loop's timer for the center's next deadline (nil: none).
    private let schedule: (MonotonicInstant?) -> Void
    /// Called when whether any request wants Wi-Fi scans changes.
    public var wifiDemandChanged: (Bool) -> Void = { _ in }

    public private(set) var requests: [UInt32: SetupRequest] = [:]
    private var nextRequest: UInt32 = 1
    public private(set) var windows = ApprovalWindows()
    /// The registered picker agent: its unique bus name and object path.
    public private(set) var agent: (name: String, path: String)?
    /// Granted accessories heard lately, for presence; each is absent once
    /// silent for longer than the registry allows it (3 times its learned
    /// advertising interval, within the presence bounds), so a sensor that
    /// wakes once a minute does not flap between present and absent.
    private var lastHeard: [AccessoryID: (at: MonotonicInstant, data: [UInt8], rssi: Int?, absentAfter: Duration)] = [:]

    public init(
        store: GrantStore, pipeline: DiscoveryPipeline, logger: Logger,
        schedule: @escaping (MonotonicInstant?) -> Void, notify: @escaping (AuthorizationNotice) -> Void
    ) {
        self.store = store
        self.pipeline = pipeline
        self.logger = logger
        self.schedule = schedule
        self.notify = notify
        pipeline.onPresence { [unowned self] event in heard(event) }
        pipeline.onHeard { [unowned self] tracked in heard(tracked) }
    }

    var now: MonotonicInstant { pipeline.now }

    public func grants(of app: AppID) -> [Grant] {
        store.grants.values.filter { $0.app == app }.sorted { $0.accessory < $1.accessory }
    }

    public func request(ofSession session: UInt64) -> SetupRequest? {
        requests.values.first { $0.session == session }
    }

    // MARK: Asking

    /// `showPicker`: validates every item against the descriptor rules and
    /// the app's manifest, then opens a request.
    @discardableResult
    public func showPicker(
        session: UInt64, manifest: AppManifest, items: [PickerDisplayItem], settings: PickerDisplaySettings
    ) throws(AccessorySetupError) -> UInt32 {
        guard !items.isEmpty, items.count <= 0xFFFF else {
            throw AccessorySetupError(.invalidRequest, reason: .message("give between 1 and 65535 display items"))
        }
        for item in items {
            do throws(DiscoveryDescriptorError) { try item.descriptor.validate() } catch { throw .invalidRequest(error) }
            try manifest.admit(item.descriptor)
        }
        try checkNoPicker(app: manifest.app)
        let number = open(SetupRequest(number: nextRequest, app: manifest.app, session: session,
                                       kind: .picker(items), settings: settings, opened: now))
        for (index, item) in items.enumerated() {
            try? pipeline.index.insert(item.descriptor, id: descriptorID(number, index), app: manifest.app)
        }
        updateWiFiDemand()
        offerRecentlyHeard(number)
        return number
    }

    /// Migration: accessories the gateway already knows, registered for the
    /// app once approved. An item whose device is already granted (to this
    /// app or another) is taken like any other and skipped at approval: the
    /// answer must not tell an app whether another app's accessory exists.
    @discardableResult
    public func migrate(session: UInt64, manifest: AppManifest, items: [MigrationItem]) throws(AccessorySetupError) -> UInt32 {
        guard !items.isEmpty else { throw AccessorySetupError(.invalidRequest, reason: .message("no migration items")) }
        for item in items {
            if item.descriptor != DiscoveryDescriptor() {
                do throws(DiscoveryDescriptorError) { try item.descriptor.validate() } catch { throw .invalidRequest(error) }
                try manifest.admit(item.descriptor)
            }
        }
        try checkNoPicker(app: manifest.app)
        return open(SetupRequest(number: nextRequest, app: manifest.app, session: session,
                                 kind: .migration(items), settings: PickerDisplaySettings(discoveryTimeout: .unbounded),
                                 opened: now))
    }

    private func checkNoPicker(app: AppID) throws(AccessorySetupError) {
        if requests.values.contains(where: { $0.app == app }) {
            throw AccessorySetupError(.pickerAlreadyActive, reason: .message("\(app) already has a picker open"))
        }
    }

    private func open(_ request: SetupRequest) -> UInt32 {
        nextRequest += 1
        requests[request.number] = request
        logger.log(.setupRequested, level: .notice,
                   "\(request.app) asks for \(request.isMigration ? "migration of " : "")\(request.itemNames.joined(separator: ", "))",
                   metadata: ["app": "\(request.app)", "request": "\(request.number)",
                              "items": .array(request.itemNames.map { .string($0) })])
        notify(.session(request.session, .pickerDidPresent))
        notify(.agent(.requestAdded(request)))
        for candidate in request.candidates { notify(.agent(.candidateAdded(request, candidate))) }
        reschedule()
        if request.isMigration { approveByPolicy(request.number) }
        return request.number
    }

    /// `updatePicker(showing:)`.
    public func updatePicker(session: UInt64, shown: [(candidate: UInt32, name: String, image: String)]) throws(AccessorySetupError) {
        guard var request = request(ofSession: session) else {
            throw AccessorySetupError(.invalidRequest, reason: .message("no picker is open"))
        }
        for entry in shown {
            let wasVisible = request.candidate(entry.candidate)?.visible ?? false
            try request.show(entry.candidate, name: entry.name, productImagePath: entry.image)
            requests[request.number] = request
            if !wasVisible, let candidate = request.candidate(entry.candidate) {
                notify(.agent(.candidateAdded(request, candidate)))
            }
        }
        for entry in shown where request.candidate(entry.candidate)?.visible == true {
            approveByPolicy(request.number)
        }
    }

    /// `finishPickerDiscovery()`.
    public func finishDiscovery(session: UInt64) throws(AccessorySetupError) {
        guard var request = request(ofSession: session) else {
            throw AccessorySetupError(.invalidRequest, reason: .message("no picker is open"))
        }
        switch request.endDiscovery() {
        case .nothingFound:
            endUnfound(request, why: "the app finished discovery with nothing to show")
        case .candidatesKept:
            requests[request.number] = request
            stopDiscovering(request)
        }
        reschedule()
    }

    /// A request discovery ended with nothing to pick from: the app hears
    /// `discoveryTimeout`, ASK's nearest error, and the agent that it ended.
    private func endUnfound(_ request: SetupRequest, why: String) {
        close(request)
        logger.log(.requestTimedOut, level: .notice, "\(request.app)'s request \(request.number) found nothing: \(why)",
                   metadata: ["app": "\(request.app)", "request": "\(request.number)",
                              "timeout": "\(request.settings.discoveryTimeout.text)"])
        notify(.session(request.session, .pickerDidDismiss(AccessorySetupError(.discoveryTimeout, reason: .message(why)))))
        notify(.agent(.requestEnded(request.number, outcome: "timed out")))
    }

    /// The session went (invalidated, or its caller left): its request ends unanswered.
    public func sessionEnded(_ session: UInt64) {
        guard let request = request(ofSession: session) else { return }
        close(request)
        logger.log(.requestEnded, level: .info, "\(request.app)'s request \(request.number) ended with its session",
                   metadata: ["app": "\(request.app)", "request": "\(request.number)"])
        notify(.agent(.requestEnded(request.number, outcome: "cancelled")))
    }

    // MARK: Deciding

    /// Approves candidate `candidate` of request `number` (0 for every item of
    /// a migration). `name` renames it when the item allows renaming.
    @discardableResult
    public func approve(_ number: UInt32, candidate: UInt32, name: String?, by decider: Decider) throws(AccessorySetupError) -> [AccessoryID] {
        guard let request = requests[number] else {
            throw AccessorySetupError(.invalidRequest, reason: .message("no pending request \(number)"))
        }
        if request.isMigration { return try approveMigration(request, by: decider) }
        guard let chosen = request.candidate(candidate), chosen.visible else {
            throw AccessorySetupError(.invalidRequest, reason: .message("request \(number) has no candidate \(candidate)"))
        }
        let item = request.pickerItems[chosen.item]
        let renamed = name.flatMap { $0.isEmpty ? nil : $0 }
        if renamed != nil, !item.setupOptions.contains(.rename) {
            throw AccessorySetupError(.invalidRequest, reason: .message("\(request.app) did not offer renaming \(item.name)"))
        }
        if let holder = holder(of: chosen.identity) {
            throw AccessorySetupError(.invalidRequest, reason: .message("\(chosen.identity) is already granted\(holder.app == request.app ? "" : " to another app")"))
        }
        var grant = Grant(accessory: newAccessoryID(), app: request.app, displayName: renamed ?? chosen.name,
                          state: item.needsAppAuthorization ? .awaitingAuthorization : .authorized,
                          descriptor: item.descriptor)
        switch chosen.identity {
        case .bluetooth(let device): grant.bluetooth = device
        case .wifi(let ssid): grant.ssid = ssid
        }
        try save(grant)  // durable before anyone is told
        close(request)
        if let tracked = tracked(chosen.identity) {
            // Just heard, or it could not have been picked: present from the start.
            lastHeard[grant.accessory] = (tracked.lastHeard, chosen.advertisingData, tracked.rssi ?? chosen.rssi,
                                          pipeline.registry.allowedSilence(of: tracked))
            reschedule()
        }
        logger.log(.accessoryApproved, level: .notice,
                   "\(grant.displayName) (\(chosen.identity)) approved for \(request.app) by \(decider)",
                   metadata: ["app": "\(request.app)", "accessory.id": "\(grant.accessory)", "request": "\(number)",
                              "identity": "\(chosen.identity)", "decided_by": "\(decider)", "state": "\(grant.state.rawValue)"])
        notify(.app(request.app, .accessoryAdded(grant.accessory)))
        if renamed != nil { notify(.session(request.session, .pickerSetupRename(grant.accessory))) }
        notify(.session(request.session, .pickerDidDismiss(nil)))
        notify(.agent(.requestEnded(number, outcome: "approved")))
        return [grant.accessory]
    }

    private func approveMigration(_ request: SetupRequest, by decider: Decider) throws(AccessorySetupError) -> [AccessoryID] {
        guard case .migration(let items) = request.kind else { return [] }
        var added: [Grant] = []
        var next = store.grants
        for item in items where holder(of: item.identity) == nil {
            var grant = Grant(accessory: newAccessoryID(), app: request.app, displayName: item.name, state: .authorized,
                              descriptor: item.descriptor)
            switch item.identity {
            case .bluetooth(let device): grant.bluetooth = device
            case .wifi(let ssid): grant.ssid = ssid
            }
            next[grant.accessory] = grant
            added.append(grant)
        }
        do { try store.replaceAll(next) } catch {
            logger.error("Cannot write the grant store: \(error)", metadata: ["grant_store": "\(store.path)"])
            throw AccessorySetupError(.unknown, reason: .message("cannot write the grant store: \(error)"))
        }
        close(request)
        updateWiFiDemand()
        let skipped = added.count < items.count ? "; \(items.count - added.count) already granted, skipped" : ""
        logger.log(.accessoriesMigrated, level: .notice,
                   "\(added.count) known accessory(ies) registered for \(request.app) by \(decider)\(skipped)",
                   metadata: ["app": "\(request.app)", "request": "\(request.number)", "count": "\(added.count)",
                              "skipped": "\(items.count - added.count)",
                              "decided_by": "\(decider)",
                              "accessory.ids": .array(added.map { .string("\($0.accessory)") })])
        for grant in added { notify(.app(request.app, .accessoryAdded(grant.accessory))) }
        notify(.session(request.session, .migrationComplete))
        notify(.session(request.session, .pickerDidDismiss(nil)))
        notify(.agent(.requestEnded(request.number, outcome: "approved")))
        return added.map(\.accessory)
    }

    public func deny(_ number: UInt32, by decider: Decider) throws(AccessorySetupError) {
        guard let request = requests[number] else {
            throw AccessorySetupError(.invalidRequest, reason: .message("no pending request \(number)"))
        }
        dismiss(request, by: decider, why: "denied by \(decider)", outcome: "denied")
    }

    /// `DismissPicker()`: the app gave up on its own request (picker or
    /// migration), as the person would dismiss ASK's picker. Ends like a
    /// denial, so a late approval finds nothing to grant.
    public func withdraw(session: UInt64) throws(AccessorySetupError) {
        guard let request = request(ofSession: session) else {
            throw AccessorySetupError(.invalidRequest, reason: .message("no picker is open"))
        }
        // "cancelled", as when the app's session ends: to an agent, the app no longer asks.
        dismiss(request, by: .app(request.app), why: "withdrawn by the app", outcome: "cancelled")
    }

    /// A request refused before it was granted, by whoever `decider` is: the
    /// app hears `userCancelled`, the agent that it ended.
    private func dismiss(_ request: SetupRequest, by decider: Decider, why: String, outcome: String) {
        close(request)
        logger.log(.requestDenied, level: .notice, "\(request.app)'s request \(request.number) \(why)",
                   metadata: ["app": "\(request.app)", "request": "\(request.number)", "decided_by": "\(decider)"])
        notify(.session(request.session, .pickerDidDismiss(AccessorySetupError(.userCancelled, reason: .message(why)))))
        notify(.agent(.requestEnded(request.number, outcome: outcome)))
    }

    // MARK: Policy and agents

    public func allow(_ app: AppID, for duration: Duration, by decider: Decider) {
        let until = now.advanced(by: duration)
        windows.open(for: app, until: until)
        logger.log(.approvalWindowOpened, level: .notice, "Approval window open for \(app) for \(duration) by \(decider)",
                   metadata: ["app": "\(app)", "window.seconds": "\(duration.components.seconds)", "decided_by": "\(decider)"])
        reschedule()
        for request in requests.values where request.app == app { approveByPolicy(request.number) }
    }

    public func disallow(_ app: AppID, by decider: Decider) {
        guard windows.close(for: app) else { return }
        logger.log(.approvalWindowClosed, level: .notice, "Approval window for \(app) closed by \(decider)",
                   metadata: ["app": "\(app)", "decided_by": "\(decider)"])
        reschedule()
    }

    public func registerAgent(name: String, path: String) throws(AccessorySetupError) {
        if let agent, agent.name != name {
            throw AccessorySetupError(.pickerAlreadyActive, reason: .message("a picker agent is already registered (\(agent.name))"))
        }
        agent = (name, path)
        logger.log(.agentRegistered, level: .notice, "Picker agent \(name) registered at \(path)",
                   metadata: ["agent": "\(name)", "agent.path": "\(path)"])
        for request in requests.values.sorted(by: { $0.number < $1.number }) {
            notify(.agent(.requestAdded(request)))
            for candidate in request.visibleCandidates { notify(.agent(.candidateAdded(request, candidate))) }
        }
    }

    /// Returns whether `name` was the agent.
    @discardableResult
    public func unregisterAgent(name: String, reason: String) -> Bool {
        guard let agent, agent.name == name else { return false }
        self.agent = nil
        logger.log(.agentUnregistered, level: .notice, "Picker agent \(name) \(reason)", metadata: ["agent": "\(name)"])
        for request in requests.values { approveByPolicy(request.number) }
        return true
    }

    /// The policy answers only when no agent is registered.
    private func approveByPolicy(_ number: UInt32) {
        guard agent == nil, let request = requests[number], windows.isOpen(for: request.app, at: now) else { return }
        let candidate: UInt32 = request.isMigration ? 0 : (request.visibleCandidates.first?.number ?? 0)
        guard request.isMigration || candidate != 0 else { return }
        do {
            try approve(number, candidate: candidate, name: nil, by: .policy)
        } catch {
            logger.warning("The approval window could not approve request \(number): \(error)",
                           metadata: ["app": "\(request.app)", "request": "\(number)"])
        }
    }

    // MARK: Accessories

    public func finishAuthorization(_ id: AccessoryID, app: AppID, ssid: SSID?, bridgingIdentifier: String?) throws(AccessorySetupError) {
        var grant = try owned(id, by: app)
        guard grant.state == .awaitingAuthorization else {
            throw AccessorySetupError(.invalidRequest, reason: .message("\(id) is not awaiting authorization"))
        }
        grant.state = .authorized
        if let ssid { grant.ssid = ssid }
        if let bridgingIdentifier { grant.bridgingIdentifier = bridgingIdentifier }
        try save(grant)
        logger.log(.authorizationFinished, level: .notice, "\(app) finished authorizing \(grant.displayName)",
                   metadata: ["app": "\(app)", "accessory.id": "\(id)"])
        notify(.app(app, .accessoryChanged(id)))
    }

    public func failAuthorization(_ id: AccessoryID, app: AppID) throws(AccessorySetupError) {
        let grant = try owned(id, by: app)
        try remove(grant, by: .app(app), why: "failed authorization")
        notify(.app(app, .pickerSetupFailed(AccessorySetupError(.unknown, reason: .message("the app failed the setup of \(grant.displayName)")))))
    }

    public func updateAuthorization(_ id: AccessoryID, manifest: AppManifest, descriptor: DiscoveryDescriptor) throws(AccessorySetupError) {
        var grant = try owned(id, by: manifest.app)
        do throws(DiscoveryDescriptorError) { try descriptor.validate() } catch { throw .invalidRequest(error) }
        try manifest.admit(descriptor)
        grant.descriptor = descriptor
        try save(grant)
        logger.log(.authorizationUpdated, level: .info, "\(manifest.app) updated the descriptor of \(grant.displayName)",
                   metadata: ["app": "\(manifest.app)", "accessory.id": "\(id)"])
        notify(.app(manifest.app, .accessoryChanged(id)))
    }

    /// `app` nil: the administrator, who may remove any accessory.
    public func remove(_ id: AccessoryID, app: AppID?, by decider: Decider) throws(AccessorySetupError) {
        let grant = try owned(id, by: app)
        try remove(grant, by: decider, why: "removed")
    }

    private func remove(_ grant: Grant, by decider: Decider, why: String) throws(AccessorySetupError) {
        do { try store.remove(grant.accessory) } catch {
            throw AccessorySetupError(.unknown, reason: .message("cannot write the grant store: \(error)"))
        }
        lastHeard.removeValue(forKey: grant.accessory)
        updateWiFiDemand()
        logger.log(.accessoryRemoved, level: .notice, "\(grant.displayName) \(why) from \(grant.app) by \(decider)",
                   metadata: ["app": "\(grant.app)", "accessory.id": "\(grant.accessory)", "decided_by": "\(decider)"])
        notify(.app(grant.app, .accessoryRemoved(grant.accessory)))
    }

    public func rename(_ id: AccessoryID, app: AppID?, to name: String, renameSSID: Bool, by decider: Decider) throws(AccessorySetupError) {
        var grant = try owned(id, by: app)
        guard !name.isEmpty, !DisplayText.hasControlCharacters(name) else {
            throw AccessorySetupError(.invalidRequest, reason: .message("a name needs text and no control characters"))
        }
        grant.displayName = name
        if renameSSID {
            guard grant.ssid != nil, let ssid = SSID(name) else {
                throw AccessorySetupError(.invalidRequest, reason: .message("the ssid option needs a Wi-Fi accessory and a name of at most 32 octets"))
            }
            grant.ssid = ssid
            grant.ssidRenamed = true
        }
        try save(grant)
        logger.log(.accessoryRenamed, level: .notice, "\(id) renamed to \(name) by \(decider)",
                   metadata: ["app": "\(grant.app)", "accessory.id": "\(id)", "decided_by": "\(decider)",
                              "ssid_renamed": "\(renameSSID)"])
        notify(.app(grant.app, .accessoryChanged(id)))
    }

    /// An accessory as its app (or, with `app` nil, the administrator) may
    /// touch it; anyone else's is "unknown", never "not yours".
    public func owned(_ id: AccessoryID, by app: AppID?) throws(AccessorySetupError) -> Grant {
        guard let grant = store.grants[id], app == nil || grant.app == app else {
            throw AccessorySetupError(.invalidRequest, reason: .message("unknown accessory \(id)"))
        }
        return grant
    }

    public func isPresent(_ id: AccessoryID) -> Bool { lastHeard[id] != nil }

    /// The security a hotspot was last heard with, if it was.
    public func hotspotSecurity(_ ssid: SSID) -> WiFiSecurity? {
        pipeline.registry.accessories.first { $0.network?.ssid == ssid }?.network?.security
    }

    /// The smoothed signal strength last heard, 0 when absent.
    /// The last strength heard, nil when not heard or heard without one.
    public func rssi(of id: AccessoryID) -> Int? { lastHeard[id]?.rssi }

    // MARK: Time

    /// The loop's timer calls this at the deadline `schedule` asked for.
    public func deadlineReached() {
        let now = self.now
        for number in requests.keys.sorted() {
            guard var request = requests[number], let deadline = request.discoveryDeadline, deadline <= now else { continue }
            switch request.endDiscovery() {
            case .nothingFound:
                endUnfound(request, why: "nothing matching was found within the discovery timeout")
            case .candidatesKept:
                requests[number] = request
                stopDiscovering(request)
            }
        }
        for app in windows.expire(at: now) {
            logger.log(.approvalWindowClosed, level: .notice, "Approval window for \(app) ran out", metadata: ["app": "\(app)"])
        }
        for (id, heard) in lastHeard {
            guard let grant = store.grants[id], heard.at.advanced(by: heard.absentAfter) <= now else { continue }
            lastHeard.removeValue(forKey: id)
            notify(.presence(grant, present: false, rssi: nil))
        }
        reschedule()
    }

    private func reschedule() {
        var deadlines = requests.values.compactMap(\.discoveryDeadline)
        if let window = windows.nextDeadline { deadlines.append(window) }
        for (id, heard) in lastHeard where store.grants[id] != nil {
            deadlines.append(heard.at.advanced(by: heard.absentAfter))
        }
        schedule(deadlines.min())
    }

    // MARK: What the radios heard

    private func heard(_ event: PresenceEvent) {
        guard case .appeared = event.kind, !requests.isEmpty, let tracked = pipeline.registry[event.accessory] else { return }
        offer(tracked, matches: event.matches)
    }

    /// A new request starts with the devices heard lately that match it, as
    /// a phone's picker shows what is around at once: a device that keeps
    /// advertising the same thing would otherwise wait for the registry to
    /// see it change.
    private func offerRecentlyHeard(_ number: UInt32) {
        let now = self.now
        for tracked in pipeline.registry.accessories {
            guard tracked.lastHeard.advanced(by: pipeline.registry.allowedSilence(of: tracked)) > now else { continue }
            let matches: Set<DescriptorMatch>
            if let advertisement = tracked.advertisement {
                matches = pipeline.index.matches(advertisement, rssi: tracked.rssi)
            } else if let network = tracked.network {
                matches = pipeline.index.matches(network)
            } else {
                continue
            }
            offer(tracked, matches: matches.filter { requestNumber(of: $0) == number })
        }
    }

    private func requestNumber(of match: DescriptorMatch) -> UInt32? {
        let raw = match.descriptorID.rawValue
        guard raw & Self.requestDescriptorBase != 0 else { return nil }
        return UInt32(truncatingIfNeeded: (raw & ~Self.requestDescriptorBase) >> 16)
    }

    private func offer(_ tracked: TrackedAccessory, matches: Set<DescriptorMatch>) {
        for match in matches.sorted() {
            let item = Int(match.descriptorID.rawValue & 0xFFFF)
            guard let number = requestNumber(of: match), var request = requests[number], request.app == match.app
            else { continue }
            let identity: DeviceIdentity
            let name: String
            let data: [UInt8]
            if let advertisement = tracked.advertisement {
                identity = .bluetooth(advertisement.device)
                name = advertisement.data.localName ?? "\(advertisement.device.address)"
                data = advertisement.rawAdvertisingData + (advertisement.rawScanResponse ?? [])
            } else if let network = tracked.network {
                identity = .wifi(network.ssid)
                name = network.ssid.displayName
                data = []
            } else {
                continue
            }
            // An accessory granted to any app is never offered again.
            guard holder(of: identity) == nil,
                let candidate = request.offer(identity, item: item, name: name, rssi: tracked.rssi,
                                              advertisingData: data)
            else { continue }
            requests[number] = request
            logger.debug("Candidate \(candidate.number) for request \(number): \(identity)")
            if request.settings.filterDiscoveryResults {
                notify(.session(request.session, .accessoryDiscovered(candidate)))
            } else {
                notify(.agent(.candidateAdded(request, candidate)))
                approveByPolicy(number)
            }
        }
    }

    private func heard(_ tracked: TrackedAccessory) {
        guard !store.grants.isEmpty else { return }
        let grant: Grant?
        let data: [UInt8]
        if let advertisement = tracked.advertisement {
            grant = store.grant(for: .bluetooth(advertisement.device))
            data = advertisement.rawAdvertisingData + (advertisement.rawScanResponse ?? [])
        } else if let network = tracked.network {
            grant = store.grant(for: .wifi(network.ssid))
            data = []
        } else {
            return
        }
        guard let grant else { return }
        let previous = lastHeard[grant.accessory]
        let absentAfter = pipeline.registry.allowedSilence(of: tracked)
        lastHeard[grant.accessory] = (now, data, tracked.rssi, absentAfter)
        if previous == nil || previous?.absentAfter != absentAfter {
            // Present again, or its deadline moved as its interval was learned.
            if previous == nil { notify(.presence(grant, present: true, rssi: tracked.rssi)) }
            reschedule()
        }
        if tracked.advertisement != nil, previous?.data != data {
            notify(.advertisement(grant, rssi: tracked.rssi, data: data))
        }
    }

    // MARK: Helpers

    /// Request descriptors live in the matching index beside the
    /// administrator's (`--descriptors`, numbered from 1) at ids above this.
    /// (bit 63 set, the request's number in bits 16–47, the item's index below).
    static let requestDescriptorBase: UInt64 = 1 << 63

    private func descriptorID(_ request: UInt32, _ item: Int) -> DescriptorID {
        DescriptorID(Self.requestDescriptorBase | UInt64(request) << 16 | UInt64(item))
    }

    private func close(_ request: SetupRequest) {
        requests.removeValue(forKey: request.number)
        stopDiscovering(request)
        reschedule()
    }

    private func stopDiscovering(_ request: SetupRequest) {
        for index in request.pickerItems.indices {
            _ = pipeline.index.remove(DescriptorMatch(app: request.app, descriptorID: descriptorID(request.number, index)))
        }
        updateWiFiDemand()
    }

    /// Whether Wi-Fi must be scanned for the apps: a request discovering with
    /// a Wi-Fi descriptor, or a Wi-Fi accessory granted, whose app follows its presence.
    public var wantsWiFiScans: Bool {
        requests.values.contains { request in
            request.discovering && request.pickerItems.contains { $0.descriptor.describesWiFi }
        } || store.grants.values.contains { $0.ssid != nil }
    }

    private func updateWiFiDemand() { wifiDemandChanged(wantsWiFiScans) }

    /// What the radios last heard of a device, if it is still tracked.
    private func tracked(_ identity: DeviceIdentity) -> TrackedAccessory? {
        switch identity {
        case .bluetooth(let device): pipeline.registry[.bluetooth(device)]
        case .wifi(let ssid): pipeline.registry.accessories.first { $0.network?.ssid == ssid }
        }
    }

    private func holder(of identity: DeviceIdentity) -> Grant? { store.grant(for: identity) }

    private func save(_ grant: Grant) throws(AccessorySetupError) {
        do { try store.save(grant) } catch {
            logger.error("Cannot write the grant store: \(error)", metadata: ["grant_store": "\(store.path)"])
            throw AccessorySetupError(.unknown, reason: .message("cannot write the grant store: \(error)"))
        }
        updateWiFiDemand()
    }

    private func newAccessoryID() -> AccessoryID {
        var generator = SystemRandomNumberGenerator()
        while true {
            let id = AccessoryID(generator.next())
            if store.grants[id] == nil, id.rawValue != 0 { return id }
        }
    }
}
