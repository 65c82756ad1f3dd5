/// What the adapter answers the back end's pending prompt with (Agent1's
/// method return or error; mgmt's User Confirmation/Passkey (Negative) Reply).
public enum PairingReply: Hashable, Sendable {
    case confirm
    case reject
    case passkey(PairingPasskey)
}
