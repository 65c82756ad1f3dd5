import AccessoryCore

/// The error names on the wire: AccessorySetupKit's codes under
/// `org.accessoryagent.Error.`, and the bus's own that either side names.
public enum BusErrorNames {
    /// `org.accessoryagent.Error.` + a code's name (`invalidRequest`).
    public static let prefix = "org.accessoryagent.Error."

    /// `org.accessoryagent.Error.invalidRequest`.
    public static func name(of code: AccessorySetupError.Code) -> String { prefix + code.description }

    /// The code an error name stands for: a full name under `prefix`, nil for any other.
    public static func code(ofName name: String) -> AccessorySetupError.Code? {
        guard name.hasPrefix(prefix) else { return nil }
        return code(named: String(name.dropFirst(prefix.count)))
    }

    /// The code whose name is `name` (`userCancelled`), as a signal's `error` may give it.
    public static func code(named name: String) -> AccessorySetupError.Code? {
        AccessorySetupError.Code.allCases.first { $0.description == name }
    }

    /// An `Admin1.AnswerPairing` refused: the pairing goes on, unanswered.
    public static func name(of error: PairingAnswerError) -> String {
        switch error {
        case .noSuchQuestion: noSuchPairingQuestion
        case .notTheApprover: notTheApprover
        case .expectedConfirmation, .expectedPasskey, .invalidAnswer: invalidPairingAnswer
        }
    }

    /// No open question by that request and prompt number (answered, timed out, never asked).
    public static let noSuchPairingQuestion = prefix + "noSuchPairingQuestion"
    /// The question is for the agent that approved (or an administrator).
    public static let notTheApprover = prefix + "notTheApprover"
    /// Not yes, no, or six digits; or a passkey for a yes-or-no question, or the reverse.
    public static let invalidPairingAnswer = prefix + "invalidPairingAnswer"
    /// The names beside the codes' under `prefix`: only `AnswerPairing` answers them.
    public static let pairingAnswerErrors = [noSuchPairingQuestion, notTheApprover, invalidPairingAnswer]

    public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
    public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    public static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
    public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
    public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
    public static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
    public static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
}
