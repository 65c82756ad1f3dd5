import AccessoryCore

/// What the bridge knows of one accessory approved for it: from the client
/// library's `Accessory`, presence changes and advertisements.
public struct BridgedAccessory: Hashable, Sendable {
    public var id: AccessoryID
    public var name: String
    public var state: AuthorizationState
    /// Nil until accessoryd says.
    public var isPresent: Bool?
    public var rssi: Int?
    /// The latest advertisement's fields, once one came.
    public var advertisement: AdvertisementFields?

    public init(
        id: AccessoryID, name: String, state: AuthorizationState = .authorized, isPresent: Bool? = nil, rssi: Int? = nil,
        advertisement: AdvertisementFields? = nil
    ) {
        self.id = id
        self.name = name
        self.state = state
        self.isPresent = isPresent
        self.rssi = rssi
        self.advertisement = advertisement
    }

    /// Only an authorized accessory is published: one still waiting for
    /// setup to finish is not yet the bridge's to show.
    public var isPublished: Bool { state == .authorized }
}
