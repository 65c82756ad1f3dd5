import AccessoryCore
import AccessoryPlatform

/// Who made a decision, as the journal records it (`DECIDED_BY=`).
public enum Decider: Hashable, Sendable, CustomStringConvertible {
    /// Through `Admin1` (accessoryctl, busctl): root or a member of the
    /// administrator group, by uid; described with the uid's user name, looked
    /// up only when a decision is recorded, not on every Admin1 call.
    case administrator(uid: UInt32)
    /// A registered picker agent, by its unique bus name.
    case agent(String)
    /// An open approval window.
    case policy
    /// The app itself (removing or renaming its own accessory, withdrawing its own request).
    case app(AppID)

    public var description: String {
        switch self {
        case .administrator(let uid):
            UnixUser.name(of: uid).map { "administrator \($0) (uid \(uid))" } ?? "administrator (uid \(uid))"
        case .agent(let name): "agent \(name)"
        case .policy: AuthorizationCore.policyDecider
        case .app(let app): AuthorizationCore.appDecider(app)
        }
    }
}
