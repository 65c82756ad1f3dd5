/// `ASPickerDisplaySettings`: how long discovery runs, and whether the app
/// filters what is found before anyone sees it.
public struct PickerDisplaySettings: Hashable, Sendable {
    public enum DiscoveryTimeout: Hashable, Sendable {
        case short, medium, long, unbounded
        case seconds(UInt32)

        /// On a gateway someone has to walk to a console or a button, so the
        /// named timeouts are longer than a phone's.
        public var duration: Duration? {
            switch self {
            case .short: .seconds(30)
            case .medium: .seconds(120)
            case .long: .seconds(600)
            case .unbounded: nil
            case .seconds(let n): .seconds(Int64(n))
            }
        }

        /// `short`, `medium`, `long`, `unbounded` or a number of seconds.
        public init?(_ text: String) {
            switch text {
            case "short": self = .short
            case "medium": self = .medium
            case "long": self = .long
            case "unbounded": self = .unbounded
            default:
                guard let n = UInt32(text), n > 0 else { return nil }
                self = .seconds(n)
            }
        }

        public var text: String {
            switch self {
            case .short: "short"
            case .medium: "medium"
            case .long: "long"
            case .unbounded: "unbounded"
            case .seconds(let n): "\(n)"
            }
        }
    }

    public var discoveryTimeout: DiscoveryTimeout
    /// Found candidates go to the app (`accessoryDiscovered`) and are shown
    /// only once the app lists them (`updatePicker`).
    public var filterDiscoveryResults: Bool

    public init(discoveryTimeout: DiscoveryTimeout = .medium, filterDiscoveryResults: Bool = false) {
        self.discoveryTimeout = discoveryTimeout
        self.filterDiscoveryResults = filterDiscoveryResults
    }
}
