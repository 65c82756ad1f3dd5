import AccessoryCore

/// The per-topic rate limit: a payload is sent when it differs from the
/// last one sent on its topic, and at most once per `minimumInterval`; a
/// change inside the interval waits for its end, and only the newest waits
/// (an advertisement every 100 ms becomes one message per interval, never a
/// queue of old values). `urgent` (a change of presence) goes at once.
/// Time is passed in: tests use a manual clock.
public struct PublishThrottle: Sendable {
    public let minimumInterval: Duration
    private var lastSent: [String: (payload: String, at: MonotonicInstant)] = [:]
    private var waiting: [String: (publication: Publication, due: MonotonicInstant)] = [:]

    public init(minimumInterval: Duration) { self.minimumInterval = minimumInterval }

    /// The publication to send now, or nil: the same as the last one sent,
    /// or held until its interval ends (`due`).
    public mutating func offer(_ publication: Publication, now: MonotonicInstant, urgent: Bool = false) -> Publication? {
        let topic = publication.topic
        guard let last = lastSent[topic] else { return send(publication, now: now) }
        if last.payload == publication.payload {
            waiting[topic] = nil
            return nil
        }
        let allowed = last.at.advanced(by: minimumInterval)
        if urgent || now >= allowed { return send(publication, now: now) }
        waiting[topic] = (publication, allowed)
        return nil
    }

    /// What waited and is due by `now`, in topic order.
    public mutating func due(now: MonotonicInstant) -> [Publication] {
        let ready = waiting.filter { $0.value.due <= now }.sorted { $0.key < $1.key }
        return ready.map { entry in
            waiting[entry.key] = nil
            return send(entry.value.publication, now: now)
        }
    }

    /// When `due` next has something; nil when nothing waits.
    public var nextDeadline: MonotonicInstant? { waiting.values.map(\.due).min() }

    /// Forgets a topic (its accessory is gone).
    public mutating func forget(_ topic: String) {
        lastSent[topic] = nil
        waiting[topic] = nil
    }

    /// Forgets everything: after a reconnect, the broker is sent the current state afresh.
    public mutating func reset() {
        lastSent.removeAll()
        waiting.removeAll()
    }

    private mutating func send(_ publication: Publication, now: MonotonicInstant) -> Publication {
        lastSent[publication.topic] = (publication.payload, now)
        return publication
    }
}
