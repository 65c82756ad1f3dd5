/// Whether a call's arguments are of the types its method declares, decided
/// from the declaration alone, before anything is read: what the bus's
/// standard `org.freedesktop.DBus.Error.InvalidArgs` answer says when not.
extension BusMethod {
    /// nil when `received` (a call's whole signature) is the declared
    /// in-signature; otherwise the first argument that differs, by position
    /// (from 1) and name: `argument 1 (accessory): expected 'o', got 's'`.
    public func argumentMismatch(received: String) -> String? {
        guard received != inputSignature else { return nil }
        let got = BusType.completeTypes(in: received)
        for (index, argument) in inputs.enumerated() {
            let which = "argument \(index + 1)" + (argument.name.map { " (\($0))" } ?? "")
            guard index < got.count else { return "\(which): expected '\(argument.type)', got nothing" }
            guard got[index] == argument.type.signature else {
                return "\(which): expected '\(argument.type)', got '\(got[index])'"
            }
        }
        let extra = got.dropFirst(inputs.count).joined()
        let takes = inputs.isEmpty ? "takes no arguments" : "takes \(inputs.count) argument\(inputs.count == 1 ? "" : "s") ('\(inputSignature)')"
        return "argument \(inputs.count + 1): \(name) \(takes), got '\(extra)' more"
    }
}

extension BusType {
    /// A signature cut into its complete types (`oa{ss}u` → `o`, `a{ss}`,
    /// `u`). The bus has already checked that a message's signature is well
    /// formed; an unbalanced rest is kept whole rather than dropped.
    public static func completeTypes(in signature: String) -> [String] {
        var types: [String] = []
        var current = ""
        var depth = 0
        for character in signature {
            current.append(character)
            switch character {
            case "(", "{": depth += 1
            case ")", "}": depth -= 1
            default: break
            }
            // An array's `a` still waits for its element.
            if depth == 0 && character != "a" {
                types.append(current)
                current = ""
            }
        }
        if !current.isEmpty { types.append(current) }
        return types
    }
}
