/// The rule for a name an app or an administrator gives accessoryd (a
/// display item's, a migration item's, a candidate's, a rename): it must
/// show something, and act on nothing. Declared once; every reader of a
/// name asks it, so "a name needs text" means the same everywhere.
public enum GivenName {
    /// Why `name` is refused, or nil when it is a name.
    public enum Problem: Equatable, Sendable, CustomStringConvertible {
        case empty
        /// A C0 or C1 control character, or DEL: they act on a terminal or a log.
        case controlCharacter(Unicode.Scalar)
        /// Only spaces, zero-width or bidi characters: nothing anyone could read.
        case nothingVisible

        public var description: String {
            switch self {
            case .empty: "is empty; a name needs at least one visible character"
            case .controlCharacter(let scalar): "holds a control character (U+\(Self.hex(scalar))); a name may hold none"
            case .nothingVisible: "has no visible character (only spaces, zero-width or bidi marks); a name needs one"
            }
        }

        static func hex(_ scalar: Unicode.Scalar) -> String {
            let digits = String(scalar.value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
    }

    public static func problem(_ name: String) -> Problem? {
        guard !name.isEmpty else { return .empty }
        var visible = false
        for scalar in name.unicodeScalars {
            if isControl(scalar) { return .controlCharacter(scalar) }
            if !visible, !isInvisible(scalar) { visible = true }
        }
        return visible ? nil : .nothingVisible
    }

    /// C0 (below U+0020), DEL and C1 (U+0080–U+009F).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// White space, format characters (U+200B, U+202E, U+FEFF…) and the
    /// default-ignorable ones (variation selectors, U+3164…): drawn as nothing.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isWhitespace || properties.isDefaultIgnorableCodePoint { return true }
        switch properties.generalCategory {
        case .format, .control, .spaceSeparator, .lineSeparator, .paragraphSeparator, .nonspacingMark, .enclosingMark: return true
        default: return false
        }
    }
}
