import AccessoryCore

/// A hotspot join that accessoryd ended on its own (`Session1.HotspotLeft`):
/// the link to the accessory's hotspot was lost and did not come back, so the
/// interface is back on its previous network and the app's sockets on the
/// hotspot are dead. Joins the app ends itself are not reported.
public struct HotspotLeft: Hashable, Sendable, CustomStringConvertible {
    public var accessory: AccessoryID
    /// As accessoryd says it: "the link dropped (reason 3) and was not back within 15 s".
    public var reason: String

    public init(accessory: AccessoryID, reason: String) {
        self.accessory = accessory
        self.reason = reason
    }

    public var description: String { "left \(accessory)'s hotspot: \(reason)" }
}
