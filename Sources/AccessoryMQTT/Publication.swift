/// One MQTT message to send: what the bridge decides, the adapter sends.
public struct Publication: Hashable, Sendable, CustomStringConvertible {
    public var topic: String
    /// Empty with `retain` clears the retained message (how a removed grant
    /// withdraws its discovery config).
    public var payload: String
    public var retain: Bool

    public init(topic: String, payload: String, retain: Bool = true) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }

    public var description: String { "\(topic) \(retain ? "retained " : "")\(payload.isEmpty ? "(empty)" : payload)" }
}
