import AccessoryCodecs

/// What `JoinHotspot` answers for a passphrase it refuses: the field, what
/// was wrong with the value (its length or an offset: the secret itself is
/// never repeated, not even to its sender's error log) and the rule.
extension WPACredentialError {
    var refusal: String {
        let wpa2 = "a WPA2 passphrase is 8 to 63 printable ASCII characters, or 64 hex digits"
        return switch self {
        case .passphraseLength(let bytes): "passphrase: \(bytes) bytes long; \(wpa2)"
        case .passphraseCharacter(let offset): "passphrase: byte \(offset) is not printable ASCII (32 to 126); \(wpa2)"
        case .pskHexDigit(let offset): "passphrase: 64 bytes long, so a raw PSK, with a non-hex digit at byte \(offset); \(wpa2)"
        case .saePasswordLength(let bytes):
            "passphrase: \(bytes) bytes long; the hotspot is WPA3-SAE only, whose password is 1 to \(SAEPassword.maximumLength) bytes"
        case .saePasswordControlCharacter(let offset):
            "passphrase: a control character at byte \(offset); the hotspot is WPA3-SAE only, whose password holds none"
        }
    }
}
