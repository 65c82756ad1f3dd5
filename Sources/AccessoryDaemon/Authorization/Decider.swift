import AccessoryCore
import AccessoryPlatform

/// Who made a decision, as the journal records it (`DECIDED_BY=`).
public enum Decider: Hashable, Sendable, CustomStringConvertible {
    /// Through `Admin1` (accessoryctl, busctl): root or a member of the
    /// administrator group, by uid; described with the uid's user name as the
    /// caller's credentials carry it (looked up off the loop, `UserNameLookup`).
    case administrator(uid: UInt32, name: String?)
    /// A registered picker agent, by its unique bus name.
    case agent(String)
    /// An open approval window.
    case policy
    /// The app itself (removing or renaming its own accessory, withdrawing its own request).
    case app(AppID)

    /// Who answers the prompts of a pairing this decider approved: the
    /// agent by its name, an administrator, or nobody (an approval window;
    /// an app never approves).
    public var pairingApprover: PairingApprover {
        switch self {
        case .administrator: .administrator
        case .agent(let name): .agent(name)
        case .policy, .app: .policy
        }
    }

    public var description: String {
        switch self {
        case .administrator(let uid, let name):
            name.map { "administrator \($0) (uid \(uid))" } ?? "administrator (uid \(uid))"
        case .agent(let name): "agent \(name)"
        case .policy: AuthorizationCore.policyDecider
        case .app(let app): AuthorizationCore.appDecider(app)
        }
    }
}
