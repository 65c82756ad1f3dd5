import AccessoryCore

/// Something that happened to the session, its picker or its accessories
/// (`ASAccessoryEvent`), in the order the agent sent it.
public struct AccessoryEvent: Hashable, Sendable, CustomStringConvertible {
    /// `ASAccessoryEventType`, name for name (Core's, shared with accessoryd).
    public typealias EventType = AccessoryEventType

    public var eventType: EventType
    /// The accessory it is about, for the accessory and setup events.
    public var accessory: Accessory?
    /// What went wrong: a picker dismissed without a pick, a failed setup, a
    /// session the agent invalidated; nil otherwise.
    public var error: AccessorySetupError?
    /// The candidate found, for `accessoryDiscovered`.
    public var discoveredAccessory: DiscoveredAccessory?

    public init(
        _ eventType: EventType, accessory: Accessory? = nil, error: AccessorySetupError? = nil,
        discoveredAccessory: DiscoveredAccessory? = nil
    ) {
        self.eventType = eventType
        self.accessory = accessory
        self.error = error
        self.discoveredAccessory = discoveredAccessory
    }

    public var description: String {
        var text = eventType.rawValue
        if let accessory { text += " \(accessory.id) \"\(accessory.displayName)\" \(accessory.state)" }
        if let found = discoveredAccessory {
            text += " candidate=\(found.candidate) \"\(found.name)\" \(found.identity) rssi=\(found.rssi.map(String.init) ?? "none")"
        }
        if let error { text += " error=\(error)" }
        return text
    }
}
