/// A JSON object written key by key, in the order given: payloads are small,
/// their keys fixed, and a stable order lets tests (and people reading
/// `mosquitto_sub`) compare them as text. No Foundation: the app stays lean.
public struct JSONObject: Sendable, Hashable {
    private var members: [String] = []

    public init() {}

    public mutating func set(_ key: String, _ value: String?) {
        guard let value else { return }
        members.append(JSONObject.quoted(key) + ":" + JSONObject.quoted(value))
    }

    public mutating func set(_ key: String, _ value: Int?) {
        guard let value else { return }
        members.append(JSONObject.quoted(key) + ":" + String(value))
    }

    public mutating func set(_ key: String, _ value: Bool) {
        members.append(JSONObject.quoted(key) + ":" + (value ? "true" : "false"))
    }

    public mutating func set(_ key: String, _ value: JSONObject) {
        members.append(JSONObject.quoted(key) + ":" + value.text)
    }

    public mutating func set(_ key: String, strings: [String]) {
        members.append(JSONObject.quoted(key) + ":[" + strings.map(JSONObject.quoted).joined(separator: ",") + "]")
    }

    public var text: String { "{" + members.joined(separator: ",") + "}" }

    /// A JSON string: quotes, backslashes and every control character escaped.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
