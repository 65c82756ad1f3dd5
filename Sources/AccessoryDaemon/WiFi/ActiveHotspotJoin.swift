import AccessoryCore

/// One join as the joiner and the service see it, whichever route it takes
/// (`HotspotJoin` through wpa_supplicant, `NetworkManagerJoin` through NetworkManager).
public protocol ActiveHotspotJoin: AnyObject {
    var interface: String { get }
    var route: HotspotJoinRoute { get }
    var result: HotspotJoinResult? { get }
    var hasLeft: Bool { get }
    /// Ends the join and restores the uplink, on the loop; safe to call more than once.
    func leave()
    /// `leave()` for when the loop has stopped or is about to, bounded per request.
    func leaveBlocking()
    /// `action` learns why, if the link to a joined hotspot is lost.
    func whenLinkLost(_ action: @escaping (String) -> Void)
    /// Called once the interface is free again (the undo done, or given up).
    func whenLeft(_ action: @escaping () -> Void)
}
