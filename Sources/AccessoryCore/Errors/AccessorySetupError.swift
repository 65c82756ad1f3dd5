/// An error as AccessorySetupKit's `ASError` reports it: one of its codes, with
/// the same names and numbers (they go on the wire as they are), plus the
/// reason the agent refused, so a developer reading it knows what to change.
public struct AccessorySetupError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `ASError.Code`, name for name and number for number.
    public enum Code: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        case success = 0
        case unknown = 1
        case activationFailed = 100
        case connectionFailed = 150
        case discoveryTimeout = 200
        case extensionNotFound = 300
        case invalidated = 400
        case invalidRequest = 450
        case pickerAlreadyActive = 500
        case pickerRestricted = 550
        case userCancelled = 700
        case userRestricted = 750

        public var description: String {
            switch self {
            case .success: "success"
            case .unknown: "unknown"
            case .activationFailed: "activationFailed"
            case .connectionFailed: "connectionFailed"
            case .discoveryTimeout: "discoveryTimeout"
            case .extensionNotFound: "extensionNotFound"
            case .invalidated: "invalidated"
            case .invalidRequest: "invalidRequest"
            case .pickerAlreadyActive: "pickerAlreadyActive"
            case .pickerRestricted: "pickerRestricted"
            case .userCancelled: "userCancelled"
            case .userRestricted: "userRestricted"
            }
        }
    }

    /// Why the agent said no, when it knows more than the code.
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// The descriptor breaks one of the descriptor rules.
        case invalidDescriptor(DiscoveryDescriptorError)
        /// The descriptor asks for something the app's manifest does not declare.
        case undeclared(ManifestViolation)
        /// Anything else, in words.
        case message(String)

        public var description: String {
            switch self {
            case .invalidDescriptor(let error): "invalid descriptor: \(error.keyDescription)"
            case .undeclared(let violation): "not declared in the app's manifest: \(violation)"
            case .message(let text): text
            }
        }
    }

    public var code: Code
    public var reason: Reason?

    public init(_ code: Code, reason: Reason? = nil) {
        self.code = code
        self.reason = reason
    }

    /// `invalidRequest` because the manifest does not declare what the descriptor uses.
    public static func invalidRequest(_ violation: ManifestViolation) -> Self {
        Self(.invalidRequest, reason: .undeclared(violation))
    }

    /// `invalidRequest` because the descriptor itself is malformed.
    public static func invalidRequest(_ error: DiscoveryDescriptorError) -> Self {
        Self(.invalidRequest, reason: .invalidDescriptor(error))
    }

    public var description: String {
        guard let reason else { return "\(code) (\(code.rawValue))" }
        return "\(code) (\(code.rawValue)): \(reason)"
    }
}
