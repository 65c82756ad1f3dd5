/// SSIDs and SSID prefixes written in a manifest: UTF-8 text, with `\xNN` for
/// any octet and `\\` for a backslash, the form `SSID.displayName` prints, so
/// a network's name can be copied from `iw`'s or the agent's output as it is.
public enum SSIDText {
    /// The octets `text` denotes; nil for a `\` not followed by `\` or `xNN`.
    public static func octets(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        var out: [UInt8] = []
        var i = 0
        while i < utf8.count {
            guard utf8[i] == UInt8(ascii: "\\") else {
                out.append(utf8[i])
                i += 1
                continue
            }
            guard i + 1 < utf8.count else { return nil }
            if utf8[i + 1] == UInt8(ascii: "\\") {
                out.append(UInt8(ascii: "\\"))
                i += 2
            } else if utf8[i + 1] == UInt8(ascii: "x"), i + 3 < utf8.count,
                let byte = bytes(fromHex: String(decoding: utf8[(i + 2)...(i + 3)], as: UTF8.self))?.first
            {
                out.append(byte)
                i += 4
            } else {
                return nil
            }
        }
        return out
    }

    /// The inverse of `octets`, for messages.
    public static func escaped(_ octets: [UInt8]) -> String {
        guard let text = String(validating: octets, as: UTF8.self),
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            return octets.map { octet in
                if octet == UInt8(ascii: "\\") { return "\\\\" }
                return (0x20..<0x7F).contains(octet) ? String(Unicode.Scalar(octet)) : "\\x" + hexByte(octet)
            }.joined()
        }
        // By scalar, not by Character: a backslash followed by a combining mark
        // is one Character, and splitting on "\\" would leave it unescaped.
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\\" { out.append("\\") }
            out.append(scalar)
        }
        return String(out)
    }
}
