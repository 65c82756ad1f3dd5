/// What the pairing back end (BlueZ's Agent1 calls, or the kernel's mgmt
/// events) asks of the gateway's side while it pairs.
public enum PairingPrompt: Hashable, Sendable {
    /// Consent to pair without a number (mgmt's User Confirmation Request
    /// with the confirm hint; BlueZ's RequestAuthorization). Needs a reply.
    case justWorks
    /// Confirm that the accessory shows this number (User Confirmation
    /// Request; RequestConfirmation). Needs a reply.
    case numericComparison(PairingPasskey)
    /// Type this passkey into the accessory (Passkey Notify; DisplayPasskey).
    /// The back end wants no reply: the accessory's typing decides.
    case passkeyDisplay(PairingPasskey)
    /// The accessory shows a passkey; the person enters it here (User
    /// Passkey Request; RequestPasskey). Needs a reply with the passkey.
    case passkeyEntry

    public var method: PairingMethod {
        switch self {
        case .justWorks: .justWorks
        case .numericComparison: .numericComparison
        case .passkeyDisplay, .passkeyEntry: .passkeyEntry
        }
    }

    /// Whether the back end waits for a reply (and so the person's answer has a deadline).
    public var needsReply: Bool {
        if case .passkeyDisplay = self { return false }
        return true
    }

    /// A name for the journal and for answer errors; never the number.
    public var name: String {
        switch self {
        case .justWorks: "Just Works confirmation"
        case .numericComparison: "numeric comparison"
        case .passkeyDisplay: "passkey display"
        case .passkeyEntry: "passkey entry"
        }
    }
}
