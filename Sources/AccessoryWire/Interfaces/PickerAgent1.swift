/// `org.accessoryagent.PickerAgent1`: what a picker agent implements at the
/// path it registered with `Admin1.RegisterAgent`. accessoryd calls it
/// without waiting for replies.
public enum PickerAgent1 {
    private static let request = BusArgument("request", .uint32)

    /// `images`: each item's product image path, parallel to `items` ("" for none).
    public static let requestAdded = BusMethod(
        "RequestAdded", in: [request, BusArgument("app", .string), BusArgument("items", .strings), BusArgument("images", .strings)])
    /// `image`: the product image path to show for the candidate ("" for none).
    public static let candidateAdded = BusMethod("CandidateAdded", in: [
        request, BusArgument("candidate", .uint32), BusArgument("item", .string), BusArgument("name", .string),
        BusArgument("identity", .string), BusArgument("rssi", .int32), BusArgument("image", .string),
    ])
    /// `outcome`: `approved`, `denied`, `timed out`, `cancelled`.
    public static let requestEnded = BusMethod("RequestEnded", in: [request, BusArgument("outcome", .string)])
    public static let release = BusMethod("Release")
    /// A pairing this agent approved asks it something (`WirePairingQuestion`'s
    /// kinds); the answer goes back with `Admin1.AnswerPairing(request, prompt, …)`.
    /// `number`: the six digits to compare or to type on the accessory, "" for none.
    public static let pairingQuestion = BusMethod("PairingQuestion", in: [
        request, BusArgument("prompt", .uint32), BusArgument("kind", .string), BusArgument("number", .string),
    ])
    /// The question is over without this agent's answer (an administrator answered, it was
    /// replaced, timed out, or its pairing ended): take it off the screen.
    public static let pairingQuestionWithdrawn = BusMethod("PairingQuestionWithdrawn", in: [request, BusArgument("prompt", .uint32)])

    /// The interface's methods, listed once, in introspection's order. The
    /// daemon is the caller here: its calls name a case, never a string.
    public enum Method: CaseIterable, Sendable {
        case requestAdded, candidateAdded, requestEnded, release, pairingQuestion, pairingQuestionWithdrawn

        public var declaration: BusMethod {
            switch self {
            case .requestAdded: PickerAgent1.requestAdded
            case .candidateAdded: PickerAgent1.candidateAdded
            case .requestEnded: PickerAgent1.requestEnded
            case .release: PickerAgent1.release
            case .pairingQuestion: PickerAgent1.pairingQuestion
            case .pairingQuestionWithdrawn: PickerAgent1.pairingQuestionWithdrawn
            }
        }
    }

    public static let interface = BusInterface(BusNames.pickerAgent, methods: Method.allCases.map(\.declaration))
}
