import AccessoryCore
import AccessoryMQTT
import AccessoryPlatform
import Glibc

/// The app's one event loop, on the main thread: it owns the MQTT client
/// and the bridge's state, and carries out what `BridgeCore` decides.
/// The client library keeps its own bus thread (see AccessorySetup's
/// `BusThread`); its streams are read by tasks that post to `inbox`, which
/// wakes this loop. So no thread of the app's own: libmosquitto's socket,
/// its timers and the session's news all meet here.
final class Bridge {
    let loop: EventLoop
    let configuration: BridgeConfiguration
    private var core: BridgeCore
    private let client: MosquittoClient
    private let inbox: Inbox
    /// Where the bridge reads the time and arms its timers: its own loop.
    private var scheduler: any Scheduler { loop }
    private var tickTimer: TimerToken?
    private var miscTimer: TimerToken?
    private var reconnectDelay: Duration = .seconds(1)
    private var connecting = false
    private var stopping = false

    init(configuration: BridgeConfiguration, credentials: BrokerCredentials?, inbox: Inbox) throws(BridgeFailure) {
        self.configuration = configuration
        self.inbox = inbox
        do { loop = try EventLoop() } catch { throw BridgeFailure("cannot make the event loop: \(error)") }
        let topics = TopicLayout(configuration)
        core = BridgeCore(topics: topics, minimumInterval: configuration.minimumInterval, withdrawalLimit: configuration.queueLimit)
        client = try MosquittoClient(clientID: configuration.effectiveClientID, loop: loop)
        try client.configure(configuration, credentials: credentials, will: Publication(topic: topics.status, payload: Payloads.offline))
        client.onConnect = { [unowned self] rc in connected(rc) }
        client.onDisconnect = { [unowned self] rc in disconnected(rc) }
        client.onMessage = { [unowned self] topic, payload in
            if topic == core.topics.homeAssistantStatus, payload == Payloads.online { apply(.homeAssistantOnline) }
        }
        client.onLogError = { line in log("mqtt: \(line)") }
        do {
            try loop.watch(inbox.wakeup) { [unowned self] in drainInbox() }
            for signal in [SIGTERM, SIGINT] { try loop.onSignal(signal) { [unowned self] in stop() } }
        } catch { throw BridgeFailure("cannot set up the event loop: \(error)") }
    }

    func run() -> Int32 {
        startConnecting()
        return (try? loop.run()) ?? 1
    }

    // MARK: The broker

    private var brokerName: String { "\(configuration.host):\(configuration.effectivePort)" + (configuration.caFile == nil ? "" : " (TLS)") }

    private func startConnecting() {
        guard !core.isConnected else { return }
        connecting = true
        // The name is resolved on a worker (getaddrinfo may wait on DNS); the answer comes through the inbox.
        let rc = client.startConnecting(host: configuration.host, port: configuration.effectivePort,
                                        keepAlive: configuration.keepAlive, again: everConnectStarted, inbox: inbox)
        everConnectStarted = true
        if rc != 0 { connectStarted(rc, MosquittoClient.describe(rc)) }
    }

    private func connectStarted(_ rc: Int32, _ error: String) {
        client.connectStarted(rc)
        guard !stopping else { return }
        if rc != 0 {
            log("cannot connect to the broker at \(brokerName): \(error); retrying in \(reconnectDelay)", .brokerUnreachable,
                ["BROKER": brokerName, "REASON": error], priority: 4)
            scheduleReconnect()
        } else {
            armMisc()
        }
    }
    private var everConnectStarted = false

    private func connected(_ rc: Int32) {
        guard rc == 0 else {
            // Refused: wrong credentials, a client id banned. Said once per attempt, and the backoff grows.
            log("the broker at \(brokerName) refused the connection: \(MosquittoClient.describeConnack(rc))", .brokerRefused,
                ["BROKER": brokerName], priority: 3)
            return
        }
        connecting = false
        reconnectDelay = .seconds(1)
        log("connected to the broker at \(brokerName) as \(configuration.effectiveClientID)", .brokerConnected,
            ["BROKER": brokerName, "CLIENT_ID": configuration.effectiveClientID], priority: 5)
        client.subscribe(core.topics.homeAssistantStatus)
        apply(.brokerConnected)
    }

    private func disconnected(_ rc: Int32) {
        let wasConnected = core.isConnected
        apply(.brokerDisconnected)
        if let miscTimer { scheduler.cancel(miscTimer) }
        miscTimer = nil
        guard !stopping else { return }
        let reason = rc == 0 ? "disconnected" : MosquittoClient.describe(rc)
        log((wasConnected ? "lost the broker at \(brokerName): " : "cannot connect to the broker at \(brokerName): ")
            + "\(reason); retrying in \(reconnectDelay)", wasConnected ? .brokerLost : .brokerUnreachable,
            ["BROKER": brokerName, "REASON": reason], priority: 4)
        scheduleReconnect()
    }

    private func scheduleReconnect() {
        let delay = reconnectDelay
        reconnectDelay = min(reconnectDelay * 2, .seconds(60))
        scheduler.at(scheduler.now.advanced(by: delay)) { [unowned self] in startConnecting() }
    }

    /// libmosquitto's keep-alive: a ping when the connection is idle, a timeout when the broker is silent.
    private func armMisc() {
        if let miscTimer { scheduler.cancel(miscTimer) }
        let period = max(.seconds(1), configuration.keepAlive / 4)
        miscTimer = scheduler.at(scheduler.now.advanced(by: period)) { [unowned self] in
            miscTimer = nil
            client.misc()
            armMisc()
        }
    }

    // MARK: What the core decides

    private func drainInbox() {
        for item in inbox.take() {
            switch item {
            case .bridge(let input):
                if case .activated(let list) = input { log("accessoryd: \(list.count) accessor\(list.count == 1 ? "y" : "ies") approved for this bridge") }
                apply(input)
            case .session(let note): log(note)
            case .connectStarted(let rc, let error): connectStarted(rc, error)
            }
        }
    }

    private func apply(_ input: BridgeCore.Input) {
        let waiting = core.withdrawals.accessories
        let publications = core.handle(input, now: scheduler.now)
        if input == .brokerConnected, !waiting.isEmpty {
            let ids = waiting.map(\.description).joined(separator: " ")
            log("withdrew \(waiting.count) grant\(waiting.count == 1 ? "" : "s") removed while the broker was away: \(ids)")
        }
        for id in core.withdrawals.accessories where !waiting.contains(id) {
            log("the grant of accessory \(id) was removed while the broker is away: its withdrawal waits for the broker "
                + "(\(core.withdrawals.accessories.count) of at most \(core.withdrawals.limit))")
        }
        if let dropped = core.droppedWithdrawal {
            log("the broker is away and \(core.withdrawals.limit) withdrawals wait (QueueLimit=): dropped the oldest, accessory \(dropped), "
                + "whose retained topics stay on the broker; \(core.withdrawals.dropped) dropped since the start",
                .withdrawalDropped, ["ACCESSORY_ID": "\(dropped)", "DROPPED": "\(core.withdrawals.dropped)"], priority: 4)
        }
        for publication in publications { client.publish(publication) }
        noteFirstPublications(publications)
        if let tickTimer { scheduler.cancel(tickTimer) }
        tickTimer = nil
        if let deadline = core.nextDeadline {
            tickTimer = scheduler.at(deadline) { [unowned self] in
                tickTimer = nil
                apply(.tick)
            }
        }
    }

    /// Accessories whose state went to the broker since the bridge started (or since they came back).
    private var announced: Set<AccessoryID> = []

    /// ACCESSORY_PUBLISHED, once per accessory: the first time its state topic is published.
    private func noteFirstPublications(_ publications: [Publication]) {
        announced = announced.filter { core.accessories[$0]?.isPublished == true }
        guard !publications.isEmpty else { return }
        let topics = Set(publications.map(\.topic))
        for (id, accessory) in core.accessories.sorted(by: { $0.key < $1.key })
        where accessory.isPublished && !announced.contains(id) && topics.contains(core.topics.state(id)) {
            announced.insert(id)
            log("published accessory \(id) (\(accessory.name)) to the broker at \(brokerName) under \(core.topics.base)/",
                .accessoryPublished, ["ACCESSORY_ID": "\(id)", "BROKER": brokerName], priority: 5)
        }
    }

    private func stop() {
        guard !stopping else { return }
        stopping = true
        if core.isConnected {
            // A clean end says offline itself: the broker keeps the last will for a crash.
            client.publish(Publication(topic: core.topics.status, payload: Payloads.offline))
            client.disconnect()
        }
        loop.exit(code: 0)
    }
}

