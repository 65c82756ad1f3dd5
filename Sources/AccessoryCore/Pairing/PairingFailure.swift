/// Why a setup's pairing ended without a bond: the reason `PickerSetupFailed`
/// names. Whatever it is, nothing is granted and nothing is stored.
public enum PairingFailure: Hashable, Sendable, CustomStringConvertible {
    public enum Timeout: String, Hashable, Sendable {
        /// The approver left a prompt unanswered.
        case answer
        /// The whole pairing, from connecting to the last key, took too long,
        /// or the accessory stopped answering.
        case pairing
    }

    public enum PolicyRefusal: Hashable, Sendable, CustomStringConvertible {
        /// `Pairing=refuse`.
        case pairingRefused
        /// `Pairing=just-works-only`, and the pairing asked for this method.
        case justWorksOnly(PairingMethod)
        /// Approved by an approval window: nobody is there to compare or enter a number.
        case nobodyToAsk(PairingMethod)

        public var description: String {
            switch self {
            case .pairingRefused: "accessoryd.conf says Pairing=refuse"
            case .justWorksOnly(let method): "accessoryd.conf says Pairing=just-works-only and the accessory asked for \(method.rawValue)"
            case .nobodyToAsk(let method): "nobody can be asked to answer \(method.rawValue) (an approval window approved it)"
            }
        }
    }

    /// The approver said no.
    case rejectedByPerson
    /// The accessory refused to pair.
    case rejectedByAccessory
    /// The keys did not agree after a passkey was entered or shown: most likely the wrong digits.
    case wrongPasskey
    /// The keys did not agree without a passkey (a numeric comparison the accessory's side refused).
    case authenticationFailed
    case timedOut(Timeout)
    /// Not found, or disconnected before the pairing ended.
    case accessoryGone
    /// The administrator's `Pairing=` does not allow it, or nobody can answer.
    case refusedByPolicy(PolicyRefusal)
    /// The back end failed otherwise (its words, for the journal).
    case backEndFailed(String)

    /// The stable name apps and scripts may match in the message.
    public var name: String {
        switch self {
        case .rejectedByPerson: "rejectedByPerson"
        case .rejectedByAccessory: "rejectedByAccessory"
        case .wrongPasskey: "wrongPasskey"
        case .authenticationFailed: "authenticationFailed"
        case .timedOut: "timedOut"
        case .accessoryGone: "accessoryGone"
        case .refusedByPolicy: "refusedByPolicy"
        case .backEndFailed: "backEndFailed"
        }
    }

    public var description: String {
        switch self {
        case .rejectedByPerson: "the approver rejected the pairing"
        case .rejectedByAccessory: "the accessory rejected the pairing"
        case .wrongPasskey: "the passkey did not match"
        case .authenticationFailed: "authentication failed"
        case .timedOut(.answer): "nobody answered the pairing prompt in time"
        case .timedOut(.pairing): "the pairing did not finish in time"
        case .accessoryGone: "the accessory went away"
        case .refusedByPolicy(let refusal): "\(refusal)"
        case .backEndFailed(let words): "the pairing back end failed: \(words)"
        }
    }

    /// What `PickerSetupFailed` carries: a person's no or silence is
    /// `userCancelled`, the administrator's `userRestricted`, the
    /// accessory's or the link's `connectionFailed`; the message starts with
    /// the reason's name in parentheses.
    public func setupError(accessoryName: String) -> AccessorySetupError {
        let code: AccessorySetupError.Code =
            switch self {
            case .rejectedByPerson, .timedOut(.answer): .userCancelled
            case .refusedByPolicy: .userRestricted
            case .rejectedByAccessory, .wrongPasskey, .authenticationFailed, .timedOut(.pairing), .accessoryGone, .backEndFailed:
                .connectionFailed
            }
        return AccessorySetupError(code, reason: .message("pairing \(DisplayText.escaped(accessoryName)) failed (\(name)): \(self)"))
    }
}
