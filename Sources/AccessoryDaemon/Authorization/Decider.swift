import AccessoryCore

/// Who made a decision, as the journal records it (`DECIDED_BY=`).
public enum Decider: Hashable, Sendable, CustomStringConvertible {
    /// Through `Admin1` (accessoryctl, busctl): root or a member of the
    /// administrator group, by uid and, where the uid has one, user name.
    case administrator(uid: UInt32, user: String?)
    /// A registered picker agent, by its unique bus name.
    case agent(String)
    /// An open approval window.
    case policy
    /// The app itself (removing or renaming its own accessory, withdrawing its own request).
    case app(AppID)

    public var description: String {
        switch self {
        case .administrator(let uid, let user?): "administrator \(user) (uid \(uid))"
        case .administrator(let uid, nil): "administrator (uid \(uid))"
        case .agent(let name): "agent \(name)"
        case .policy: "policy (approval window)"
        case .app(let app): "app \(app)"
        }
    }
}
