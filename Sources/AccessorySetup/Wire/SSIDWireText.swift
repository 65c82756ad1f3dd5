import AccessoryCore

/// Octets as the D-Bus API writes an SSID or SSID prefix: text, with `\xNN`
/// for any octet and `\\` for a backslash (the syntax of the descriptor files).
/// An SSID is not text: it may hold NUL, control bytes or half a UTF-8
/// character, none of which a D-Bus string may carry as they are.
enum SSIDWireText {
    /// Valid UTF-8 without control characters stays readable; anything else is
    /// written octet by octet, printable ASCII as it is and the rest as `\xNN`.
    static func text(_ octets: [UInt8]) -> String {
        if let text = String(validating: octets, as: UTF8.self),
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        {
            var out = ""
            for character in text { out += character == "\\" ? "\\\\" : String(character) }
            return out
        }
        var out = ""
        for octet in octets {
            if octet == UInt8(ascii: "\\") {
                out += "\\\\"
            } else if (0x20..<0x7F).contains(octet) {
                out.unicodeScalars.append(Unicode.Scalar(octet))
            } else {
                out += "\\x" + hexByte(octet)
            }
        }
        return out
    }

    /// A `\` not followed by `\` or two hex digits, at this UTF-8 offset.
    struct InvalidEscape: Error, Hashable, Sendable {
        var offset: Int
    }

    /// The octets `text` denotes.
    static func octets(_ text: String) throws(InvalidEscape) -> [UInt8] {
        let utf8 = Array(text.utf8)
        var out: [UInt8] = []
        var index = 0
        while index < utf8.count {
            guard utf8[index] == UInt8(ascii: "\\") else {
                out.append(utf8[index])
                index += 1
                continue
            }
            let remaining = utf8.count - index
            if remaining >= 2, utf8[index + 1] == UInt8(ascii: "\\") {
                out.append(UInt8(ascii: "\\"))
                index += 2
            } else if remaining >= 4, utf8[index + 1] == UInt8(ascii: "x"),
                let octet = bytes(fromHex: String(decoding: utf8[(index + 2)...(index + 3)], as: UTF8.self))?.first
            {
                out.append(octet)
                index += 4
            } else {
                throw InvalidEscape(offset: index)
            }
        }
        return out
    }
}
