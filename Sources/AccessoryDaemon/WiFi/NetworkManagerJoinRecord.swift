import AccessoryCore

/// What a join through NetworkManager asks it to hold, written (atomically)
/// before the profile is added, so that a start after a crash finds the
/// profile by its uuid, deletes it, and brings the uplink back: the
/// interface, the profile's uuid, and the uuid of the connection that was
/// active on the interface before the join (empty when none was). One
/// `key=value` per line; no secret is ever in it.
public struct NetworkManagerJoinRecord: Hashable, Sendable {
    public var interface: String
    public var profileUUID: String
    public var uplinkUUID: String

    public init(interface: String, profileUUID: String, uplinkUUID: String) {
        self.interface = interface
        self.profileUUID = profileUUID
        self.uplinkUUID = uplinkUUID
    }

    public static let suffix = ".nm-record"
    public static func fileName(interface: String) -> String { "hotspot-join-\(interface)\(suffix)" }

    public var encoded: [UInt8] {
        Array("interface=\(interface)\nprofile_uuid=\(profileUUID)\nuplink_uuid=\(uplinkUUID)\n".utf8)
    }

    public init(decoding bytes: [UInt8]) throws(JoinRecord.DecodingError) {
        var values: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { throw .malformed("line without '='") }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        func value(_ key: String) throws(JoinRecord.DecodingError) -> String {
            guard let value = values[key] else { throw .missing(key) }
            return value
        }
        interface = try value("interface")
        guard HotspotJoiner.isPlainInterfaceName(interface) else { throw .malformed("interface") }
        profileUUID = try value("profile_uuid")
        guard Self.isUUID(profileUUID) else { throw .malformed("profile_uuid") }
        uplinkUUID = try value("uplink_uuid")
        guard uplinkUUID.isEmpty || Self.isUUID(uplinkUUID) else { throw .malformed("uplink_uuid") }
    }

    /// A random (version 4) uuid for a new profile.
    public static func newUUID() -> String {
        // SystemRandomNumberGenerator: getrandom(2), the kernel's CSPRNG.
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    /// 8-4-4-4-12 lowercase hex digits, as NetworkManager writes uuids.
    public static func isUUID(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.map(\.count) == [8, 4, 4, 4, 12]
            && parts.allSatisfy { $0.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) } }
    }
}
