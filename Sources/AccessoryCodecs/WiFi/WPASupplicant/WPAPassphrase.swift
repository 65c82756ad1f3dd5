/// A WPA2-Personal secret, checked before it goes anywhere: either a
/// passphrase of 8–63 printable ASCII characters, or a raw 256-bit PSK as 64
/// hex digits. Printing, interpolating or dumping it shows `<redacted>`.
public struct WPAPassphrase: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    public enum Form: Hashable, Sendable { case passphrase, rawPSK }

    public let form: Form
    /// The secret's bytes, for the control command only.
    let bytes: [UInt8]

    public init(bytes: some Collection<UInt8>) throws(WPACredentialError) {
        let bytes = Array(bytes)
        if bytes.count == 64 {
            if let offset = bytes.firstIndex(where: { !Self.isHexDigit($0) }) {
                throw .pskHexDigit(offset: offset)
            }
            form = .rawPSK
        } else {
            guard (8...63).contains(bytes.count) else { throw .passphraseLength(bytes.count) }
            if let offset = bytes.firstIndex(where: { !(0x20...0x7E).contains($0) }) {
                throw .passphraseCharacter(offset: offset)
            }
            form = .passphrase
        }
        self.bytes = bytes
    }

    public init(_ text: String) throws(WPACredentialError) { try self.init(bytes: Array(text.utf8)) }

    /// The value of `SET_NETWORK <id> psk`: a passphrase in double quotes,
    /// taken literally by wpa_supplicant up to the last quote (so quotes inside
    /// need no escaping); a raw PSK as its 64 hex digits, unquoted.
    var controlValue: [UInt8] {
        switch form {
        case .passphrase: [UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\"")]
        case .rawPSK: bytes
        }
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
