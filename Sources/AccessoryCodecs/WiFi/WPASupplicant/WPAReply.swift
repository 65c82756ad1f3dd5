import AccessoryCore

/// Reading wpa_supplicant's replies, one function per kind of command. Each
/// first turns `FAIL`, `FAIL-BUSY` and `UNKNOWN COMMAND` into their errors.
public enum WPAReply {
    /// `OK` (SET_NETWORK, SELECT_NETWORK, REMOVE_NETWORK, ATTACH, SCAN, …).
    public static func expectOK(_ reply: [UInt8]) throws(WPAReplyError) {
        let text = try checked(reply)
        guard text.elementsEqual("OK".utf8) else { throw .unexpected(prefix: Array(reply.prefix(32))) }
    }

    /// `PONG` for PING.
    public static func expectPong(_ reply: [UInt8]) throws(WPAReplyError) {
        let text = try checked(reply)
        guard text.elementsEqual("PONG".utf8) else { throw .unexpected(prefix: Array(reply.prefix(32))) }
    }

    /// The new network's id, for ADD_NETWORK.
    public static func networkID(_ reply: [UInt8]) throws(WPAReplyError) -> WPANetworkID {
        let text = try checked(reply)
        guard let id = WPANetworkID(text: String(decoding: text, as: UTF8.self)) else {
            throw .notANetworkID(prefix: Array(reply.prefix(32)))
        }
        return id
    }

    /// `STATUS`: `key=value` lines.
    public static func status(_ reply: [UInt8]) throws(WPAReplyError) -> WPAStatus {
        _ = try checked(reply)
        var fields: [String: [UInt8]] = [:]
        for (number, line) in lines(reply).enumerated() where !line.isEmpty {
            guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else {
                throw .statusLineWithoutSeparator(line: number + 1)
            }
            fields[String(decoding: line[..<equals], as: UTF8.self)] = Array(line[(equals + 1)...])
        }
        return try WPAStatus(fields: fields)
    }

    /// `LIST_NETWORKS`: a header, then `id<TAB>ssid<TAB>bssid<TAB>flags` per network.
    public static func networkList(_ reply: [UInt8]) throws(WPAReplyError) -> [WPANetworkListEntry] {
        _ = try checked(reply)
        let all = lines(reply)
        guard let header = all.first, header.starts(with: Array("network id".utf8)) else {
            throw .networkListHeaderMissing
        }
        var entries: [WPANetworkListEntry] = []
        for (number, line) in all.enumerated().dropFirst() where !line.isEmpty {
            let columns = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            guard columns.count == 4, let id = WPANetworkID(text: String(decoding: columns[0], as: UTF8.self)),
                let ssidBytes = try? WPAEscapedText.decode(columns[1]), let ssid = SSID(bytes: ssidBytes)
            else { throw .networkListRow(line: number + 1) }
            entries.append(WPANetworkListEntry(id: id, ssid: ssid, flags: WPANetworkFlags(columns[3])))
        }
        return entries
    }

    /// `GET_NETWORK <id> ssid`: `"text"` when every byte is printable ASCII
    /// (inner quotes are not escaped), hex otherwise.
    public static func ssidValue(_ reply: [UInt8]) throws(WPAReplyError) -> SSID {
        let text = try checked(reply)
        let quote = UInt8(ascii: "\"")
        let raw: [UInt8]?
        if text.count >= 2, text.first == quote, text.last == quote {
            raw = Array(text.dropFirst().dropLast())
        } else {
            raw = bytes(fromHex: String(decoding: text, as: UTF8.self))
        }
        guard let raw, let ssid = SSID(bytes: raw) else { throw .networkValue }
        return ssid
    }

    /// The reply without its final newline, after the failures every command can get.
    static func checked(_ reply: [UInt8]) throws(WPAReplyError) -> ArraySlice<UInt8> {
        guard !reply.isEmpty else { throw .empty }
        var text = reply[...]
        if text.last == UInt8(ascii: "\n") { text = text.dropLast() }
        if text.elementsEqual("FAIL-BUSY".utf8) { throw .busy }
        if text.elementsEqual("FAIL".utf8) { throw .failed(detail: nil) }
        if text.starts(with: "FAIL-".utf8) { throw .failed(detail: String(decoding: text.dropFirst(5), as: UTF8.self)) }
        if text.elementsEqual("UNKNOWN COMMAND".utf8) { throw .unknownCommand }
        return text
    }

    static func lines(_ reply: [UInt8]) -> [ArraySlice<UInt8>] {
        reply.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    }
}
