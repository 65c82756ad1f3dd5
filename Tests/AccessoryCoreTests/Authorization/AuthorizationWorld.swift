@testable import AccessoryCore

/// The authorization core with, in memory, what the daemon's adapter does
/// around it: a manual clock, the registry and matching index the radios
/// feed, the grant writes "made durable" (or refused, with `failWrites`),
/// index changes applied, follow-ups fed back in, and every notice and
/// journal line kept for the test to read.
struct AuthorizationWorld {
    static let acme = AppManifest(app: "acme", supports: [.bluetooth, .wifi],
                                  bluetoothServiceUUIDs: [BluetoothUUID(uuid16: 0x180F)], bluetoothNames: ["Acme"],
                                  ssidPrefixes: [Array("ACME-".utf8)])
    static let globex = AppManifest(app: "globex", supports: [.bluetooth], bluetoothServiceUUIDs: [BluetoothUUID(uuid16: 0x181A)],
                                    bluetoothNames: ["Thermo"])
    static let sensor = DiscoveryDescriptor(bluetoothServiceUUID: BluetoothUUID(uuid16: 0x180F), bluetoothNameSubstring: "Acme")
    static let thermometer = DiscoveryDescriptor(bluetoothServiceUUID: BluetoothUUID(uuid16: 0x181A), bluetoothNameSubstring: "Thermo")
    static let camera = DiscoveryDescriptor(ssidPrefix: Array("ACME-".utf8))

    var core: AuthorizationCore
    let clock = ManualClock()
    var registry = AccessoryRegistry()
    var index = MatchingIndex()
    private(set) var notices: [String] = []
    private(set) var log: [AuthorizationLogLine] = []
    private(set) var written: [GrantWrite] = []
    /// What the decisions asked of the pairing adapter, in order.
    private(set) var pairingOrders: [SetupPairingOrder] = []
    var failWrites = false

    init(grants: [Grant] = []) {
        core = AuthorizationCore(grants: Dictionary(uniqueKeysWithValues: grants.map { ($0.accessory, $0) }), idSeed: 7)
    }

    var now: MonotonicInstant { clock.now }

    typealias Input<Result> = AuthorizationCore.Input<Result>

    /// One input as the adapter runs it (`AuthorizationCore.transact`, the
    /// daemon's code): kept only once its write is "durable".
    @discardableResult
    mutating func run<Result>(_ input: Input<Result>) throws(AccessorySetupError) -> Result {
        let failWrites = failWrites
        var durable: [GrantWrite] = []
        let (result, decision) = try core.transact(at: clock.now, registry: registry, persist: { write, _ throws(AccessorySetupError) in
            if failWrites { throw AccessorySetupError(.unknown, reason: .message("cannot write the grant store: no space left")) }
            durable.append(write)
        }, input)
        written += durable
        carryOut(decision)
        return result
    }

    mutating func apply(_ input: (inout AuthorizationCore, MonotonicInstant, AccessoryRegistry) -> AuthorizationDecision) {
        try? run { core, now, registry throws(AccessorySetupError) in ((), input(&core, now, registry)) }
    }

    /// What the daemon's center does with a decision, in its order, in memory.
    private mutating func carryOut(_ decision: AuthorizationDecision) {
        index.apply(decision.indexChanges)
        log += decision.log
        notices += decision.notices.map(Self.describe)
        pairingOrders += decision.pairing
        for next in decision.followUps { apply(next.input(index: index)) }
    }

    /// Forgets what was noticed so far, so a test reads only what follows.
    mutating func clearNotices() { notices = [] }

    // MARK: Inputs, as the service makes them

    @discardableResult
    mutating func show(
        session: UInt64 = 1, _ manifest: AppManifest = acme, items: [PickerDisplayItem]? = nil,
        settings: PickerDisplaySettings = PickerDisplaySettings()
    ) throws(AccessorySetupError) -> UInt32 {
        let items = items ?? [PickerDisplayItem(name: "Acme sensor", descriptor: Self.sensor)]
        return try run { core, now, _ throws(AccessorySetupError) in
            try core.showPicker(session: session, manifest: manifest, items: items, settings: settings, at: now)
        }
    }

    @discardableResult
    mutating func approve(_ number: UInt32, candidate: UInt32 = 1, name: String? = nil, by decider: String = "administrator (uid 0)",
                          approver: PairingApprover = .administrator) throws(AccessorySetupError) -> [AccessoryID] {
        try run { core, now, registry throws(AccessorySetupError) in
            try core.approve(number, candidate: candidate, name: name, decidedBy: decider, approver: approver, registry: registry, at: now)
        }
    }

    /// Runs an input that returns only a decision.
    mutating func decide(_ input: (inout AuthorizationCore) throws(AccessorySetupError) -> AuthorizationDecision) throws(AccessorySetupError) {
        try run { core, _, _ throws(AccessorySetupError) in ((), try input(&core)) }
    }

    mutating func advance(by duration: Duration) {
        clock.advance(by: duration)
        apply { core, now, registry in core.deadlineReached(registry: registry, at: now) }
    }

    /// Moves to the core's next deadline (there must be one) and lets it act.
    mutating func runToDeadline() {
        guard let deadline = core.nextDeadline(registry: registry) else { return }
        advance(by: deadline.duration(since: now))
    }

    // MARK: What the radios hear, as the discovery pipeline passes it on

    static func device(_ n: UInt64) -> BluetoothDeviceIdentifier {
        BluetoothDeviceIdentifier(address: BluetoothAddress(rawValue: 0xC0FF_EE00_0000 | n)!, addressType: .public)
    }

    mutating func hear(_ n: UInt64, name: String = "Acme 12", service: UInt16 = 0x180F, rssi: Int8 = -50, extra: UInt8 = 0) {
        let nameBytes = Array(name.utf8)
        let raw: [UInt8] = [2, 0x01, 0x06, UInt8(nameBytes.count + 1), 0x09] + nameBytes + [3, 0x03, UInt8(service & 0xFF), UInt8(service >> 8), 2, 0xFF, extra]
        feed(registry.record(Advertisement(
            device: Self.device(n), properties: [.connectable], rssi: rssi,
            data: AdvertisingData(flags: 6, completeLocalName: nameBytes, completeServiceUUIDs: [BluetoothUUID(uuid16: service)]),
            rawAdvertisingData: raw), at: now, matchingWith: index), key: .bluetooth(Self.device(n)))
    }

    mutating func hear(ssid: String, bssid: UInt64 = 0x0200_0000_0001, signal: Int = -40) {
        feed(registry.record(WiFiNetwork(bssid: BSSID(rawValue: bssid)!, ssid: SSID(ssid)!, frequencyMHz: 2437, signalDBm: signal,
                                         security: .wpa2PSK), at: now, matchingWith: index), key: .wifi(BSSID(rawValue: bssid)!))
    }

    private mutating func feed(_ events: [PresenceEvent], key: AccessoryKey) {
        for event in events { apply { core, _, registry in core.appeared(event, registry: registry) } }
        if let tracked = registry[key] { apply { core, _, _ in core.heard(tracked) } }
    }

    // MARK: Reading notices

    static func describe(_ notice: AuthorizationNotice) -> String {
        switch notice {
        case .session(let session, let event): "session \(session) \(describe(event))"
        case .app(let app, let event): "app \(app) \(describe(event))"
        case .agent(.requestAdded(let request)): "agent requestAdded \(request.number) \(request.app)"
        case .agent(.candidateAdded(let request, let candidate)): "agent candidateAdded \(request.number) \(candidate.number) \(candidate.name)"
        case .agent(.requestEnded(let number, let outcome)): "agent requestEnded \(number) \(outcome)"
        case .agent(.pairingQuestion(let question, let agent)): "agent pairingQuestion \(question.id) \(agent)"
        case .agent(.pairingQuestionWithdrawn(let id, let agent)): "agent pairingQuestionWithdrawn \(id) \(agent)"
        case .presence(let grant, let present, let rssi): "presence \(grant.app) \(grant.accessory) \(present) \(rssi.map(String.init) ?? "-")"
        case .advertisement(let grant, _, let data): "advertisement \(grant.app) \(grant.accessory) \(data.count)"
        }
    }

    static func describe(_ event: AuthorizationNotice.SessionEvent) -> String {
        switch event {
        case .pickerDidPresent: "pickerDidPresent"
        case .accessoryDiscovered(let candidate): "accessoryDiscovered \(candidate.number) \(candidate.name)"
        case .accessoryAdded(let id): "accessoryAdded \(id)"
        case .accessoryChanged(let id): "accessoryChanged \(id)"
        case .accessoryRemoved(let id): "accessoryRemoved \(id)"
        case .pickerSetupRename(let id): "pickerSetupRename \(id)"
        case .pickerSetupPairing(let id): "pickerSetupPairing \(id)"
        case .pickerSetupFailed(let error): "pickerSetupFailed \(error.code.description)"
        case .pickerDidDismiss(let error): "pickerDidDismiss \(error?.code.description ?? "-")"
        case .migrationComplete: "migrationComplete"
        }
    }

    /// The notices one app could ever be shown: its sessions', its own, its accessories'.
    func notices(of app: AppID, sessions: [UInt64]) -> [String] {
        notices.filter { line in
            sessions.contains { line.hasPrefix("session \($0) ") } || line.hasPrefix("app \(app) ")
                || line.hasPrefix("presence \(app) ") || line.hasPrefix("advertisement \(app) ")
        }
    }
}
