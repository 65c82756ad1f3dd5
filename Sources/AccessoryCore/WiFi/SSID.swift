/// A Wi-Fi network name: 0 to 32 arbitrary octets (IEEE 802.11-2020 §9.4.2.2).
/// Not text: it may hold any byte, including NUL and invalid UTF-8.
public struct SSID: Hashable, Sendable, CustomStringConvertible {
    public static let maximumLength = 32

    public let bytes: [UInt8]

    /// Nil when longer than 32 octets.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count <= Self.maximumLength else { return nil }
        self.bytes = Array(bytes)
    }

    /// The UTF-8 bytes of `text`; nil when they exceed 32 octets.
    public init?(_ text: String) { self.init(bytes: Array(text.utf8)) }

    /// A hidden network's beacon carries an empty SSID or one of zero octets.
    public var isHidden: Bool { bytes.allSatisfy { $0 == 0 } }

    /// The bytes as text when they are valid UTF-8 with no control characters;
    /// nil otherwise.
    public var utf8Text: String? {
        guard let text = String(validating: bytes, as: UTF8.self),
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        return text
    }

    /// A printable, unambiguous form: valid UTF-8 text as it is, with `\` doubled;
    /// anything else byte by byte with `\xNN` escapes (the form `iw` prints).
    public var displayName: String {
        if let text = utf8Text { return text.replacingBackslashes() }
        var out = ""
        for byte in bytes {
            if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "\\x" + hexByte(byte)
            }
        }
        return out
    }

    public var description: String { displayName }
}

extension String {
    fileprivate func replacingBackslashes() -> String {
        var out = ""
        for c in self { out += c == "\\" ? "\\\\" : String(c) }
        return out
    }
}
