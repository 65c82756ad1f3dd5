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

    /// The interface's methods, listed once, in introspection's order. The
    /// daemon is the caller here: its calls name a case, never a string.
    public enum Method: CaseIterable, Sendable {
        case requestAdded, candidateAdded, requestEnded, release

        public var declaration: BusMethod {
            switch self {
            case .requestAdded: PickerAgent1.requestAdded
            case .candidateAdded: PickerAgent1.candidateAdded
            case .requestEnded: PickerAgent1.requestEnded
            case .release: PickerAgent1.release
            }
        }
    }

    public static let interface = BusInterface(BusNames.pickerAgent, methods: Method.allCases.map(\.declaration))
}
