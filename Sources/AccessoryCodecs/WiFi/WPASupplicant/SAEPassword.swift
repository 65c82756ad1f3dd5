/// A WPA3-Personal (SAE) password: any bytes but control characters, 1 to 128
/// of them (802.11 sets no maximum; 128 keeps the control command small).
/// Sent to wpa_supplicant as hex, so quotes and spaces need no escaping.
/// Printing, interpolating or dumping it shows `<redacted>`.
public struct SAEPassword: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    public static let maximumLength = 128

    let bytes: [UInt8]

    public init(bytes: some Collection<UInt8>) throws(WPACredentialError) {
        let bytes = Array(bytes)
        guard (1...Self.maximumLength).contains(bytes.count) else { throw .saePasswordLength(bytes.count) }
        if let offset = bytes.firstIndex(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw .saePasswordControlCharacter(offset: offset)
        }
        self.bytes = bytes
    }

    public init(_ text: String) throws(WPACredentialError) { try self.init(bytes: Array(text.utf8)) }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
