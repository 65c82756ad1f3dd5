/// An accessory came into or went out of view for some apps' descriptors,
/// like Android's onDeviceAppeared / onDeviceDisappeared.
public struct PresenceEvent: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// First matched these descriptors (or matched them again after being lost).
        case appeared
        case lost(LossReason)
    }

    public enum LossReason: Hashable, Sendable {
        /// Silent, or no longer matching, for longer than its interval allows.
        case silent
        /// Pushed out of the full table by devices heard more recently.
        case evicted
    }

    public var kind: Kind
    public var accessory: AccessoryKey
    /// The descriptors concerned; an app is told only about its own.
    public var matches: Set<DescriptorMatch>
    public var at: MonotonicInstant

    public init(kind: Kind, accessory: AccessoryKey, matches: Set<DescriptorMatch>, at: MonotonicInstant) {
        self.kind = kind
        self.accessory = accessory
        self.matches = matches
        self.at = at
    }

    /// The event as `app` may see it: only its own descriptors, or nil when none are concerned.
    public func restricted(to app: AppID) -> PresenceEvent? {
        let own = matches.filter { $0.app == app }
        guard !own.isEmpty else { return nil }
        return PresenceEvent(kind: kind, accessory: accessory, matches: own, at: at)
    }

    public var description: String {
        let what = switch kind {
        case .appeared: "appeared"
        case .lost(.silent): "lost"
        case .lost(.evicted): "evicted"
        }
        return "\(at) \(accessory) \(what) for \(matches.sorted().map(\.description).joined(separator: ", "))"
    }
}
