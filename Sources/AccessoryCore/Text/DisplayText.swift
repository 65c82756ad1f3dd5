/// Text that came from the radio (a device's name, an SSID) or from an app,
/// made safe to print: control and format characters (escape sequences, bidi
/// overrides, line breaks) are shown as escapes instead of acting on the
/// administrator's terminal or forging lines in a log. The one place this is
/// decided: accessoryctl's output and both log handlers use it.
public enum DisplayText {
    public static func escaped(_ text: String) -> String {
        // Nothing to escape is the common case: no copy.
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                result += scalar.value < 0x100 ? "\\x" + hex(scalar.value, width: 2) : "\\u{" + hex(scalar.value, width: 4) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `text` holds a C0 or C1 control character or DEL: what a name
    /// given to accessoryd (an item's, a rename's) may not hold (`GivenName`).
    public static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: GivenName.isControl)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: true
        default: false
        }
    }

    /// A table cell: escaped, with `-` for nothing.
    public static func cell(_ text: String) -> String { text.isEmpty ? "-" : escaped(text) }

    /// In double quotes, escaped.
    public static func quoted(_ text: String) -> String { "\"" + escaped(text) + "\"" }

    /// A value quoted back in an error: escaped, in double quotes, and cut
    /// after `limit` characters (`…` says so), so a megabyte of nonsense
    /// costs a line, not a megabyte, in the caller's log.
    public static func excerpt(_ text: String, limit: Int = 64) -> String {
        guard text.count > limit else { return quoted(text) }
        return "\"" + escaped(String(text.prefix(limit))) + "\"…"
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
