/// Why an answer changed nothing; the answering caller hears it, the pairing goes on.
public enum PairingAnswerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No open question has this id: never asked, answered already,
    /// replaced by the back end, timed out, or of another request.
    case noSuchQuestion(PairingQuestion.ID)
    /// Someone other than the approver (or an administrator) answered.
    case notTheApprover(PairingQuestion.ID)
    /// A passkey for a question that wants yes or no.
    case expectedConfirmation(PairingQuestion.ID, prompt: String)
    /// Yes for passkey entry, which needs the six digits.
    case expectedPasskey(PairingQuestion.ID)
    /// Text that is neither yes, no, nor six digits (not repeated here: it may be a passkey).
    case invalidAnswer

    public var description: String {
        switch self {
        case .noSuchQuestion(let id): "no open pairing question \(id) (answered, timed out, or never asked)"
        case .notTheApprover(let id): "pairing question \(id) is for the one who approved the accessory"
        case .expectedConfirmation(let id, let prompt): "pairing question \(id) is a \(prompt): answer yes or no"
        case .expectedPasskey(let id): "pairing question \(id) is a passkey entry: answer with the six digits the accessory shows, or no"
        case .invalidAnswer: "a pairing answer is yes, no, or six digits 000000-999999"
        }
    }
}
