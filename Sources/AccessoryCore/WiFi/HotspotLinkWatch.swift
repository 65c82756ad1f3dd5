/// After a join succeeded: is the link to the hotspot still there? A short
/// drop is normal (a rekey, a roam, the accessory's AP restarting) and
/// wpa_supplicant reconnects by itself, so a disconnection only counts as a
/// loss when the link is not back within the grace period. A lost link ends
/// the join, so the interface goes back to the gateway's own network instead
/// of searching for an accessory that is gone.
public struct HotspotLinkWatch: Hashable, Sendable {
    /// What the owner does with its grace timer.
    public enum Action: Hashable, Sendable {
        case none
        /// Start the grace timer (the link just went down).
        case armGrace
        /// Cancel it (the link is back).
        case disarmGrace
        /// The join is over: end it, saying why.
        case lost(reason: String)
    }

    public enum Link: Hashable, Sendable {
        case up
        /// Waiting out a drop; the 802.11 reason code when wpa_supplicant gave one.
        case down(reason: UInt16?)
        /// Not back in time, or wpa_supplicant went away: the watch is over.
        case lost
    }

    public let grace: Duration
    public private(set) var link: Link = .up

    public init(grace: Duration = .seconds(15)) {
        self.grace = grace
    }

    public mutating func handle(_ signal: HotspotJoinSignal) -> Action {
        switch (signal, link) {
        case (_, .lost):
            return .none
        case (.disconnected(let reason), .up):
            link = .down(reason: reason)
            return .armGrace
        case (.connected, .down):
            link = .up
            return .disarmGrace
        case (.failed(let reason), _):
            link = .lost
            return .lost(reason: reason)
        default:
            // Attempts to come back, or news that changes nothing; the grace period bounds them.
            return .none
        }
    }

    /// The grace timer fired.
    public mutating func graceExpired() -> Action {
        guard case .down(let reason) = link else { return .none }
        link = .lost
        let code = reason.map { " (reason \($0))" } ?? ""
        return .lost(reason: "the link dropped\(code) and was not back within \(grace.components.seconds) s")
    }
}
