/// How the back end says connecting or pairing failed, in the terms both
/// back ends share (BlueZ's org.bluez.Error names, mgmt's status codes).
public enum PairingBackEndError: Hashable, Sendable, CustomStringConvertible {
    /// The accessory said no (AuthenticationRejected; mgmt Rejected, Pairing Not Supported).
    case rejectedByAccessory
    /// The keys did not agree: a wrong passkey or a number that did not
    /// match (AuthenticationFailed; mgmt Authentication Failed).
    case authenticationFailed
    /// The accessory stopped answering (AuthenticationTimeout, the SMP 30 s timer; mgmt Timeout).
    case timedOut
    /// Not there to connect to (DoesNotExist, ConnectionAttemptFailed; mgmt Connect Failed).
    case notFound
    /// The link dropped while pairing.
    case disconnected
    /// Anything else, as the back end named it (for the journal; no secrets in it).
    case other(String)

    public var description: String {
        switch self {
        case .rejectedByAccessory: "rejected by the accessory"
        case .authenticationFailed: "authentication failed"
        case .timedOut: "the accessory stopped answering"
        case .notFound: "accessory not found"
        case .disconnected: "disconnected"
        case .other(let text): DisplayText.excerpt(text)
        }
    }
}
