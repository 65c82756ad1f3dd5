/// The LE association model a pairing uses (Core Specification Vol 3 Part H
/// §2.3.5.1), as the prompts show it: what the person is asked for.
public enum PairingMethod: String, Hashable, Sendable, CaseIterable {
    /// No number: the person only consents. No protection against a man in the middle.
    case justWorks
    /// Both sides show the same six digits; the person confirms they match (LE Secure Connections).
    case numericComparison
    /// The person types the six digits the gateway shows into the accessory, or the accessory's into the gateway.
    case passkeyEntry
}
