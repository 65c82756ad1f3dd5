import AccessoryCore

/// One line of text for any decoded value, the same on every architecture:
/// structure through `Mirror` (type, labels, children), a type's own
/// description beside it (the daemon prints addresses and UUIDs that way),
/// dictionaries and sets sorted, octets in hex, strings escaped. Never an
/// address: classes show their stored properties, not their identity.
enum CanonicalRendering {
    static func render(_ value: Any) -> String {
        // Secrets show only what they choose to: a key's description, never its octets.
        if let key = value as? SecurityKey { return key.description }
        // By exact type: an empty array of anything would cast to [UInt8].
        if type(of: value) == [UInt8].self, let octets = value as? [UInt8] { return hex(octets) }
        if type(of: value) == ArraySlice<UInt8>.self, let octets = value as? ArraySlice<UInt8> { return hex(octets) }
        if let text = value as? String { return text.debugDescription }
        if let text = value as? Substring { return String(text).debugDescription }
        if let character = value as? Character { return String(character).debugDescription }

        let mirror = Mirror(reflecting: value)
        // Numbers, booleans, and values that show no structure (redacted secrets).
        if mirror.displayStyle == nil, mirror.children.isEmpty { return String(describing: value) }
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.map { render($0.value) } ?? "nil"
        case .collection:
            return "[" + mirror.children.map { render($0.value) }.joined(separator: ", ") + "]"
        case .set:
            return "{" + mirror.children.map { render($0.value) }.sorted().joined(separator: ", ") + "}"
        case .dictionary:
            let entries = mirror.children.map { entry -> String in
                let pair = Mirror(reflecting: entry.value).children.map { render($0.value) }
                return pair.joined(separator: ": ")
            }
            return "[" + entries.sorted().joined(separator: ", ") + "]"
        case .tuple:
            return "(" + labelled(mirror) + ")"
        case .struct, .class, .enum, .foreignReference, nil:
            let name = String(describing: type(of: value))
            var text = name
            if let described = value as? any CustomStringConvertible {
                text += " " + described.description.debugDescription
            } else if mirror.displayStyle == .enum, mirror.children.isEmpty {
                return name + "." + String(describing: value)
            }
            if !mirror.children.isEmpty { text += "(" + labelled(mirror) + ")" }
            return text
        @unknown default:
            return String(describing: type(of: value))
        }
    }

    /// Children as `label: value`, in declaration order; the superclass's first.
    private static func labelled(_ mirror: Mirror) -> String {
        var parts: [String] = []
        if let superclass = mirror.superclassMirror { parts.append(labelled(superclass)) }
        for child in mirror.children {
            parts.append((child.label.map { $0 + ": " } ?? "") + render(child.value))
        }
        return parts.joined(separator: ", ")
    }

    static func hex(_ octets: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = Array("0x".utf8)
        for octet in octets {
            text.append(digits[Int(octet >> 4)])
            text.append(digits[Int(octet & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
