import AccessoryCore

/// Parses the datagrams an ATTACHed control socket receives.
public enum WPAEventParser {
    public static func parse(_ datagram: [UInt8]) throws(WPAEventError) -> WPAEventMessage {
        var text = datagram[...]
        if text.last == UInt8(ascii: "\n") { text = text.dropLast() }
        guard text.count >= 3, text.first == UInt8(ascii: "<"),
            let level = text.dropFirst().first, (0x30...0x39).contains(level),
            text.dropFirst(2).first == UInt8(ascii: ">")
        else { throw .missingLevel }
        return WPAEventMessage(level: level - 0x30, event: try event(Array(text.dropFirst(3))))
    }

    static func event(_ body: [UInt8]) throws(WPAEventError) -> WPAEvent {
        let name = String(decoding: body.prefix { $0 != UInt8(ascii: " ") }, as: UTF8.self)
        let fields = WPAEventFields(body)
        switch name {
        case "CTRL-EVENT-CONNECTED":
            // "- Connection to 02:00:00:00:01:00 completed [id=0 id_str=]"
            let words = String(decoding: body, as: UTF8.self).split(separator: " ")
            let bssid = words.count > 4 ? BSSID(words[4]) : nil
            return .connected(bssid: bssid, networkID: try fields.networkID("id", in: name))
        case "CTRL-EVENT-DISCONNECTED":
            return .disconnected(
                bssid: fields["bssid"].flatMap { BSSID(String(decoding: $0, as: UTF8.self)) },
                reason: try fields.number("reason", in: name),
                locallyGenerated: fields["locally_generated"] == Array("1".utf8))
        case "CTRL-EVENT-SSID-TEMP-DISABLED":
            guard let reason = fields["reason"] else { throw .missingField(event: name, field: "reason") }
            return .temporarilyDisabled(
                networkID: try fields.networkID("id", in: name), reason: String(decoding: reason, as: UTF8.self))
        case "CTRL-EVENT-SSID-REENABLED":
            return .reenabled(networkID: try fields.networkID("id", in: name))
        case "CTRL-EVENT-NETWORK-NOT-FOUND":
            return .networkNotFound
        case "CTRL-EVENT-ASSOC-REJECT":
            guard let status = try fields.number("status_code", in: name) else {
                throw .missingField(event: name, field: "status_code")
            }
            return .associationRejected(
                bssid: fields["bssid"].flatMap { BSSID(String(decoding: $0, as: UTF8.self)) }, status: status)
        case "CTRL-EVENT-AUTH-REJECT":
            guard let status = try fields.number("status_code", in: name) else {
                throw .missingField(event: name, field: "status_code")
            }
            return .authenticationRejected(status: status)
        case "CTRL-EVENT-SCAN-STARTED": return .scanStarted
        case "CTRL-EVENT-SCAN-RESULTS": return .scanResults
        case "CTRL-EVENT-SCAN-FAILED": return .scanFailed
        case "CTRL-EVENT-TERMINATING": return .terminating
        case "WPA:" where body.starts(with: Array("WPA: 4-Way Handshake failed".utf8)):
            return .fourWayHandshakeFailed
        default:
            return .other(name)
        }
    }
}

/// The `key=value` words of an event. A value in double quotes (an SSID) runs to
/// the closing quote, skipping `\"` escapes, so spaces and `=` inside it are no
/// separators.
struct WPAEventFields {
    private var values: [String: [UInt8]] = [:]

    init(_ body: [UInt8]) {
        var index = 0
        while index < body.count {
            // CONNECTED's "[id=N id_str=]" opens with a bracket.
            while index < body.count, body[index] == UInt8(ascii: " ") || body[index] == UInt8(ascii: "[") { index += 1 }
            let keyStart = index
            while index < body.count, body[index] != UInt8(ascii: " "), body[index] != UInt8(ascii: "=") { index += 1 }
            let key = String(decoding: body[keyStart..<index], as: UTF8.self)
            guard index < body.count, body[index] == UInt8(ascii: "=") else { continue }
            index += 1
            let valueStart = index
            if index < body.count, body[index] == UInt8(ascii: "\"") {
                index += 1
                while index < body.count, body[index] != UInt8(ascii: "\"") {
                    index += body[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index = min(index + 1, body.count)
            } else {
                while index < body.count, body[index] != UInt8(ascii: " ") { index += 1 }
            }
            // A field seen twice keeps its first value.
            if values[key] == nil { values[key] = Array(body[valueStart..<index]) }
        }
    }

    subscript(key: String) -> [UInt8]? { values[key] }

    func number(_ key: String, in event: String) throws(WPAEventError) -> UInt16? {
        guard let value = values[key] else { return nil }
        guard !value.isEmpty, value.count <= 5, value.allSatisfy({ (0x30...0x39).contains($0) }),
            let number = UInt16(String(decoding: value, as: UTF8.self))
        else { throw .malformedField(event: event, field: key) }
        return number
    }

    func networkID(_ key: String, in event: String) throws(WPAEventError) -> WPANetworkID? {
        guard let value = values[key] else { return nil }
        guard let id = WPANetworkID(text: String(decoding: value, as: UTF8.self)) else {
            throw .malformedField(event: event, field: key)
        }
        return id
    }
}
