/// Text that came from the radio (a device's name, an SSID) or from an app,
/// made safe to print: control and format characters (escape sequences, bidi
/// overrides, line breaks) are shown as escapes instead of acting on the
/// administrator's terminal.
enum DisplayText {
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                result += scalar.value < 0x100 ? "\\x" + hex(scalar.value, width: 2) : "\\u{" + hex(scalar.value, width: 4) + "}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A table cell: escaped, with `-` for nothing.
    static func cell(_ text: String) -> String { text.isEmpty ? "-" : escaped(text) }

    /// In double quotes, escaped.
    static func quoted(_ text: String) -> String { "\"" + escaped(text) + "\"" }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
