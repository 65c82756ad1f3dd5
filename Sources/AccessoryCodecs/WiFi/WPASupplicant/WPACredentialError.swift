/// Why a passphrase or password was refused before anything was sent to
/// wpa_supplicant. Positions only: an error never carries the secret itself.
public enum WPACredentialError: Error, Hashable, Sendable {
    /// A WPA2 passphrase must be 8 to 63 characters (IEEE 802.11-2020 Annex J.4.1),
    /// or exactly 64 hex digits for a raw PSK.
    case passphraseLength(Int)
    /// A passphrase character outside printable ASCII (32–126), at this byte offset.
    case passphraseCharacter(offset: Int)
    /// A 64-character PSK with a non-hex digit at this offset.
    case pskHexDigit(offset: Int)
    /// An SAE password must be 1 to `SAEPassword.maximumLength` bytes.
    case saePasswordLength(Int)
    /// An SAE password holding a control character (C0, DEL) at this byte offset.
    case saePasswordControlCharacter(offset: Int)
}
