import AccessoryCore

/// wpa_supplicant's `STATUS`: every field as sent, and the ones the agent uses, decoded.
public struct WPAStatus: Hashable, Sendable {
    /// Raw values by key.
    public var fields: [String: [UInt8]]
    /// `wpa_state`: COMPLETED, SCANNING, DISCONNECTED, INACTIVE, ….
    public var state: String?
    /// The network block in use (`id`), while associated.
    public var networkID: WPANetworkID?
    /// The SSID in use, its escapes undone.
    public var ssid: SSID?
    public var bssid: BSSID?
    /// `ip_address`, as wpa_supplicant read it from the interface.
    public var ipAddress: IPv4Address?

    public var isCompleted: Bool { state == "COMPLETED" }

    init(fields: [String: [UInt8]]) throws(WPAReplyError) {
        self.fields = fields
        state = fields["wpa_state"].map { String(decoding: $0, as: UTF8.self) }
        if let value = fields["id"] {
            guard let id = WPANetworkID(text: String(decoding: value, as: UTF8.self)) else { throw .statusField("id") }
            networkID = id
        }
        if let value = fields["ssid"] {
            guard let bytes = try? WPAEscapedText.decode(value), let ssid = SSID(bytes: bytes) else {
                throw .statusField("ssid")
            }
            self.ssid = ssid
        }
        if let value = fields["bssid"] {
            guard let bssid = BSSID(String(decoding: value, as: UTF8.self)) else { throw .statusField("bssid") }
            self.bssid = bssid
        }
        if let value = fields["ip_address"] {
            guard let address = IPv4Address(String(decoding: value, as: UTF8.self)) else {
                throw .statusField("ip_address")
            }
            ipAddress = address
        }
    }
}
