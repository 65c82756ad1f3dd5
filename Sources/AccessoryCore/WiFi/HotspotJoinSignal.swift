/// What the join state machine is told, translated by the daemon from
/// wpa_supplicant's events and from the DHCP client.
public enum HotspotJoinSignal: Hashable, Sendable {
    /// The link to the hotspot is up (CTRL-EVENT-CONNECTED for the temporary network).
    case connected
    /// The link went down (CTRL-EVENT-DISCONNECTED), with the 802.11 reason code when given.
    case disconnected(reason: UInt16?)
    /// The 4-way handshake failed (`WPA: 4-Way Handshake failed`): a likely wrong key.
    case handshakeFailed
    /// The network was disabled for a while; `reason` as wpa_supplicant says it (`WRONG_KEY`, `CONN_FAILED`, …).
    case temporarilyDisabled(reason: String)
    /// A scan ended without the SSID (CTRL-EVENT-NETWORK-NOT-FOUND).
    case networkNotFound
    /// The AP rejected the association (CTRL-EVENT-ASSOC-REJECT status_code=).
    case associationRejected(status: UInt16)
    /// The DHCP client configured this address.
    case addressObtained(IPv4Address)
    /// Something outside the radio failed (the DHCP client exited, wpa_supplicant went away).
    case failed(reason: String)
}
