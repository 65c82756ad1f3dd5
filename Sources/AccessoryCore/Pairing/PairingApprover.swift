/// Who approved the accessory, and so who answers its pairing's prompts:
/// the person behind the picker agent, or an administrator (accessoryctl).
public enum PairingApprover: Hashable, Sendable, CustomStringConvertible {
    /// The registered picker agent, by its unique bus name.
    case agent(String)
    /// An administrator (root or a member of accessory-admin) through Admin1.
    case administrator
    /// An approval window: nobody is watching, so nobody can compare or
    /// enter a number; a Just Works confirmation is consented to already.
    case policy

    /// Whether `answerer` may answer this approver's questions. An
    /// administrator may answer any (they could deny the request anyway);
    /// another agent, or a former one, may not.
    public func accepts(_ answerer: PairingApprover) -> Bool {
        switch (self, answerer) {
        case (_, .administrator): true
        case (.agent(let approver), .agent(let other)): approver == other
        default: false
        }
    }

    public var description: String {
        switch self {
        case .agent(let name): "agent \(name)"
        case .administrator: "administrator"
        case .policy: "approval window"
        }
    }
}
