/// Turns a swift-log metadata key into a valid journald field name.
///
/// journald accepts only `A–Z`, `0–9` and `_`, at most 64 characters, not
/// starting with `_` (reserved for trusted fields) or a digit; an invalid
/// name makes it drop the field without a word. So every key is mapped,
/// never dropped: letters are uppercased, `.`, `-`, space and other ASCII
/// punctuation become `_`, any other character is written as the hex of its
/// UTF-8 bytes, and a name that would start badly or clash with a field the
/// handler writes itself gets a prefix. `accessory.id` becomes `ACCESSORY_ID`.
public enum JournalFieldName {
    public static let maximumLength = 64

    /// Fields the handler sets itself; metadata may not overwrite them.
    public static let reserved: Set<String> = [
        "MESSAGE", "PRIORITY", "CODE_FILE", "CODE_LINE", "CODE_FUNC", "SYSLOG_IDENTIFIER",
    ]

    public static func mapping(_ key: String) -> String {
        var name = ""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "A"..."Z", "0"..."9", "_":
                name.unicodeScalars.append(scalar)
            case "a"..."z":
                name.unicodeScalars.append(Unicode.Scalar(scalar.value - 0x20)!)
            case _ where scalar.isASCII:
                name += "_"
            default:
                for byte in String(scalar).utf8 { name += hexByteUpper(byte) }
            }
        }
        if name.isEmpty || name.first == "_" || name.first!.isNumber || reserved.contains(name) {
            name = "META_" + name
        }
        return String(name.prefix(maximumLength))
    }

    private static func hexByteUpper(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    /// Whether journald would accept `name` as it is.
    public static func isValid(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= maximumLength,
            first != "_", !("0"..."9").contains(first)
        else { return false }
        return name.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}
