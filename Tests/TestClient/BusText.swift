import AccessoryPlatform

/// A message's remaining arguments as one line of text, whatever their
/// types, so a test can compare what a client received: `ay` in hex,
/// arrays in brackets, structs in parentheses, dictionaries in braces,
/// a variant as its value, arguments separated by spaces.
enum BusText {
    static func arguments(of message: BusMessage) throws(BusError) -> [String] {
        var texts: [String] = []
        while let next = message.peekType() { texts.append(try value(message, next)) }
        return texts
    }

    private static func value(_ message: BusMessage, _ next: (type: Character, contents: String)) throws(BusError) -> String {
        switch next.type {
        case "s": return try message.readString()
        case "o": return try message.readObjectPath()
        case "u": return String(try message.readUInt32())
        case "i": return String(try message.readInt32())
        case "q": return String(try message.readUInt16())
        case "t": return String(try message.readUInt64())
        case "b": return try message.readBool() ? "true" : "false"
        case "h":
            _ = try message.readFileDescriptor()
            return "fd"
        case "a" where next.contents == "y":
            return try message.readBytes().map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        case "a":
            var elements: [String] = []
            try message.readArray(next.contents) { () throws(BusError) in
                guard let inner = message.peekType() else { return }
                elements.append(try value(message, inner))
            }
            return next.contents.hasPrefix("{") ? "{" + elements.joined(separator: ",") + "}" : "[" + elements.joined(separator: ",") + "]"
        case "r", "e", "v":
            var fields: [String] = []
            try message.readContainer(next.type, next.contents) { () throws(BusError) in
                while let inner = message.peekType() { fields.append(try value(message, inner)) }
            }
            switch next.type {
            case "e": return fields.joined(separator: "=")
            case "v": return fields.joined()
            default: return "(" + fields.joined(separator: ",") + ")"
            }
        default:
            throw .invalidArguments("the test client cannot read type \(next.type)")
        }
    }
}
