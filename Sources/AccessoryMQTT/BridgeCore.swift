import AccessoryCore

/// The bridge's decisions as a value: what it heard from accessoryd and the
/// broker, and the instant, in; the MQTT messages to send, out. The adapter
/// (accessory-mqtt's loop) only carries them out.
///
/// Only accessories the client library reports (those approved for this
/// app) and only authorized ones ever reach a topic. While the broker is
/// away only withdrawals are queued (`PendingWithdrawals`, bounded): the
/// state is kept, and on the next connection the current state is sent
/// afresh, so nothing stale is published as current.
public struct BridgeCore: Sendable {
    public enum Input: Hashable, Sendable {
        /// The broker accepted the connection.
        case brokerConnected
        case brokerDisconnected
        /// `online` on Home Assistant's status topic: it restarted and wants the configs again.
        case homeAssistantOnline
        /// A session was activated: these are all the app's accessories now.
        case activated([BridgedAccessory])
        /// Added or changed (renamed, its state moved on).
        case accessoryUpdated(BridgedAccessory)
        case accessoryRemoved(AccessoryID)
        case presence(AccessoryID, isPresent: Bool, rssi: Int?)
        case advertisement(AccessoryID, rssi: Int?, data: [UInt8])
        /// Time passed: held publications may be due.
        case tick
    }

    public let topics: TopicLayout
    public let discovery: HomeAssistantDiscovery
    public private(set) var accessories: [AccessoryID: BridgedAccessory] = [:]
    public private(set) var isConnected = false
    private var throttle: PublishThrottle
    /// Published before and removed since, while the broker was away: cleared on the next connection.
    public private(set) var withdrawals: PendingWithdrawals
    /// The withdrawal the last input dropped from a full queue (the adapter logs it).
    public private(set) var droppedWithdrawal: AccessoryID?

    public init(topics: TopicLayout, minimumInterval: Duration, withdrawalLimit: Int = BridgeConfiguration.defaultQueueLimit) {
        self.topics = topics
        discovery = HomeAssistantDiscovery(topics: topics)
        throttle = PublishThrottle(minimumInterval: minimumInterval)
        withdrawals = PendingWithdrawals(limit: withdrawalLimit)
    }

    /// When `tick` next has something to send.
    public var nextDeadline: MonotonicInstant? { isConnected ? throttle.nextDeadline : nil }

    public mutating func handle(_ input: Input, now: MonotonicInstant) -> [Publication] {
        droppedWithdrawal = nil
        switch input {
        case .brokerConnected:
            isConnected = true
            throttle.reset()
            var out = [Publication(topic: topics.status, payload: Payloads.online), discovery.gatewayConfig]
            for id in withdrawals.takeAll() { out += clearing(id) }
            for accessory in published { out += everything(accessory, now: now) }
            return out
        case .brokerDisconnected:
            isConnected = false
            return []
        case .homeAssistantOnline:
            guard isConnected else { return [] }
            return [discovery.gatewayConfig] + published.flatMap { discovery.configs(for: $0) }
        case .activated(let list):
            let current = Dictionary(list.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var out: [Publication] = []
            for (id, old) in accessories.sorted(by: { $0.key < $1.key }) where current[id]?.isPublished != true && old.isPublished {
                out += remove(id)
            }
            accessories = accessories.filter { current[$0.key] != nil }
            for accessory in list { out += update(accessory, now: now) }
            return out
        case .accessoryUpdated(let accessory):
            return update(accessory, now: now)
        case .accessoryRemoved(let id):
            guard let old = accessories.removeValue(forKey: id) else { return [] }
            return old.isPublished ? remove(id) : []
        case .presence(let id, let isPresent, let rssi):
            guard var accessory = accessories[id] else { return [] }
            let changedPresence = accessory.isPresent != isPresent
            accessory.isPresent = isPresent
            accessory.rssi = isPresent ? rssi : nil
            accessories[id] = accessory
            guard accessory.isPublished, let payload = Payloads.presence(accessory, gateway: topics.gateway) else { return [] }
            return offer(Publication(topic: topics.presence(id), payload: payload), now: now, urgent: changedPresence)
        case .advertisement(let id, let rssi, let data):
            guard var accessory = accessories[id] else { return [] }
            accessory.advertisement = AdvertisementFields(adStructures: data)
            if let rssi { accessory.rssi = rssi }
            accessories[id] = accessory
            guard accessory.isPublished, let payload = Payloads.advertisement(accessory, gateway: topics.gateway) else { return [] }
            var out = offer(Publication(topic: topics.advertisement(id), payload: payload), now: now)
            // Heard, so present: the RSSI goes to the presence topic too, within the same bound.
            if accessory.isPresent == true, let presence = Payloads.presence(accessory, gateway: topics.gateway) {
                out += offer(Publication(topic: topics.presence(id), payload: presence), now: now)
            }
            return out
        case .tick:
            return isConnected ? throttle.due(now: now) : []
        }
    }

    private var published: [BridgedAccessory] {
        accessories.values.filter(\.isPublished).sorted { $0.id < $1.id }
    }

    private mutating func update(_ new: BridgedAccessory, now: MonotonicInstant) -> [Publication] {
        var accessory = new
        let old = accessories[new.id]
        // The library's accessory has no advertisement: keep the one heard.
        if accessory.advertisement == nil { accessory.advertisement = old?.advertisement }
        if accessory.isPresent == nil { accessory.isPresent = old?.isPresent }
        accessories[new.id] = accessory
        if old?.isPublished == true, !accessory.isPublished { return remove(new.id) }
        guard accessory.isPublished, old != accessory || old == nil else { return [] }
        withdrawals.cancel(accessory.id)
        return isConnected ? everything(accessory, now: now) : []
    }

    /// Discovery configs, state, presence and advertisement: what a new
    /// subscriber (or a broker that lost its retained messages) needs.
    private mutating func everything(_ accessory: BridgedAccessory, now: MonotonicInstant) -> [Publication] {
        var out = discovery.configs(for: accessory)
        out.append(Publication(topic: topics.state(accessory.id), payload: Payloads.state(accessory, gateway: topics.gateway)))
        if let presence = Payloads.presence(accessory, gateway: topics.gateway) {
            out += offer(Publication(topic: topics.presence(accessory.id), payload: presence), now: now, urgent: true)
        }
        if let advertisement = Payloads.advertisement(accessory, gateway: topics.gateway) {
            out += offer(Publication(topic: topics.advertisement(accessory.id), payload: advertisement), now: now, urgent: true)
        }
        return out
    }

    private mutating func remove(_ id: AccessoryID) -> [Publication] {
        guard isConnected else {
            droppedWithdrawal = withdrawals.add(id)
            return []
        }
        return clearing(id)
    }

    /// Every retained message of the accessory, emptied.
    private mutating func clearing(_ id: AccessoryID) -> [Publication] {
        let own = [topics.state(id), topics.presence(id), topics.advertisement(id)]
        for topic in own { throttle.forget(topic) }
        return discovery.removals(for: id) + own.map { Publication(topic: $0, payload: "") }
    }

    private mutating func offer(_ publication: Publication, now: MonotonicInstant, urgent: Bool = false) -> [Publication] {
        guard isConnected else { return [] }
        return throttle.offer(publication, now: now, urgent: urgent).map { [$0] } ?? []
    }
}
