/// The approver's answer to a `PairingQuestion`.
public enum PairingAnswer: Hashable, Sendable {
    /// Go on: the number matches, or consent to Just Works; for a passkey display, seen.
    case confirm
    /// Stop the pairing (`rejectedByPerson`).
    case reject
    /// The passkey the accessory shows, for passkey entry.
    case passkey(PairingPasskey)

    /// What accessoryctl and PickerAgent1 pass: `yes`/`confirm`, `no`/`reject`,
    /// or six digits. Nil for anything else, so a typo is refused, not read as a no.
    public init?(text: String) {
        switch text.lowercased() {
        case "yes", "confirm": self = .confirm
        case "no", "reject": self = .reject
        default:
            guard let passkey = PairingPasskey(text: text) else { return nil }
            self = .passkey(passkey)
        }
    }
}
