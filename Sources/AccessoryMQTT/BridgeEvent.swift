/// The bridge's notable events, each with a stable MESSAGE_ID in the
/// journal (described in packaging/accessory-mqtt/accessory-mqtt.catalog,
/// which `journalctl -x` shows), so an administrator can filter on them
/// (`journalctl MESSAGE_ID=…`) as on accessoryd's.
public enum BridgeEvent: String, CaseIterable, Sendable {
    /// The broker accepted the connection (the first, or after a loss).
    case brokerConnected = "64c6d51246184290812f091b6f743005"
    /// A connection the broker had accepted ended.
    case brokerLost = "bb0aa85f4ba94dbf84a224ab642d8eea"
    /// No connection could be made (down, unreachable, a TLS failure).
    case brokerUnreachable = "4fa2d48069ee4e0f9857bc7c797bc39f"
    /// The broker answered and refused: wrong credentials, a banned client id.
    case brokerRefused = "b048245d321841feb37c2aaaa3fcc3d3"
    /// An accessory approved for the bridge was published for the first time (since the bridge started).
    case accessoryPublished = "5e30f4815f954388a0e475be8314c65f"
    /// While the broker was away, more grants were removed than QueueLimit=: the oldest withdrawal was dropped.
    case withdrawalDropped = "fc8c2b9331b140859fd817ca8256d0bd"

    /// The catalog's name for it (`journalctl -x`'s Subject comes from the catalog).
    public var name: String {
        switch self {
        case .brokerConnected: "BROKER_CONNECTED"
        case .brokerLost: "BROKER_LOST"
        case .brokerUnreachable: "BROKER_UNREACHABLE"
        case .brokerRefused: "BROKER_REFUSED"
        case .accessoryPublished: "ACCESSORY_PUBLISHED"
        case .withdrawalDropped: "WITHDRAWAL_DROPPED"
        }
    }
}
