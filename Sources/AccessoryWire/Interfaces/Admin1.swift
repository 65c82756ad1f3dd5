/// `org.accessoryagent.Admin1` at `/org/accessoryagent`: the administrator's
/// side (accessoryctl, a picker agent's answers); root and `accessory-admin`.
public enum Admin1 {
    private static let request = BusArgument("request", .uint32)

    public static let listRequests = BusMethod("ListRequests", out: [BusArgument("requests", .array(WireRequestRow.type))])
    public static let listCandidates = BusMethod(
        "ListCandidates", in: [request], out: [BusArgument("candidates", .array(WireCandidateRow.type))])
    public static let approve = BusMethod(
        "Approve", in: [request, BusArgument("candidate", .uint32), BusArgument("name", .string)],
        out: [BusArgument("accessory", .objectPath)])
    public static let deny = BusMethod("Deny", in: [request])
    public static let listAccessories = BusMethod(
        "ListAccessories", out: [BusArgument("accessories", .array(WireAccessoryRow.type))])
    public static let removeAccessory = BusMethod("RemoveAccessory", in: [BusArgument("id", .string)])
    public static let renameAccessory = BusMethod("RenameAccessory", in: [BusArgument("id", .string), BusArgument("name", .string)])
    public static let allow = BusMethod("Allow", in: [BusArgument("app", .string), BusArgument("seconds", .uint32)])
    public static let disallow = BusMethod("Disallow", in: [BusArgument("app", .string)])
    public static let registerAgent = BusMethod("RegisterAgent", in: [BusArgument("agent", .objectPath)])
    public static let unregisterAgent = BusMethod("UnregisterAgent", in: [BusArgument("agent", .objectPath)])
    /// The pairing questions open now, for whoever approved (`WirePairingQuestion`).
    public static let listPairingQuestions = BusMethod(
        "ListPairingQuestions", out: [BusArgument("questions", .array(WirePairingQuestion.type))])
    /// `answer`: `yes`/`confirm`, `no`/`reject`, or the six digits of passkey
    /// entry. Only the approver (its agent), or an administrator, may answer;
    /// a refusal is one of `BusErrorNames`' pairing answer errors.
    public static let answerPairing = BusMethod(
        "AnswerPairing", in: [request, BusArgument("prompt", .uint32), BusArgument("answer", .string)])

    /// The interface's methods, listed once, in introspection's order; the
    /// daemon's handler switches over them with no default (see `Manager1.Method`).
    public enum Method: CaseIterable, Sendable {
        case listRequests, listCandidates, approve, deny, listAccessories, removeAccessory, renameAccessory, allow
        case disallow, registerAgent, unregisterAgent, listPairingQuestions, answerPairing

        public var declaration: BusMethod {
            switch self {
            case .listRequests: Admin1.listRequests
            case .listCandidates: Admin1.listCandidates
            case .approve: Admin1.approve
            case .deny: Admin1.deny
            case .listAccessories: Admin1.listAccessories
            case .removeAccessory: Admin1.removeAccessory
            case .renameAccessory: Admin1.renameAccessory
            case .allow: Admin1.allow
            case .disallow: Admin1.disallow
            case .registerAgent: Admin1.registerAgent
            case .unregisterAgent: Admin1.unregisterAgent
            case .listPairingQuestions: Admin1.listPairingQuestions
            case .answerPairing: Admin1.answerPairing
            }
        }

        /// The method a call names; nil for any other member.
        public init?(member: String?) {
            guard let found = Self.allCases.first(where: { $0.declaration.name == member }) else { return nil }
            self = found
        }
    }

    public static let interface = BusInterface(BusNames.admin, methods: Method.allCases.map(\.declaration))
}
