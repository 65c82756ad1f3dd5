/// How an attempt to join an accessory's hotspot ended: what the app is told.
public enum HotspotJoinResult: Hashable, Sendable, CustomStringConvertible {
    /// Associated, keys in place, and an IPv4 address on `interface`.
    case joined(interface: String, address: IPv4Address)
    /// The hotspot refused the passphrase or password (the 4-way handshake or SAE failed).
    case wrongKey
    /// No scan found the SSID.
    case networkNotFound
    /// The access point rejected the association, with its IEEE 802.11 status code.
    case associationRejected(status: UInt16)
    /// Nothing decisive happened before the deadline.
    case timedOut
    /// Anything else: wpa_supplicant refused a command, no DHCP lease, …
    case failed(reason: String)

    public var description: String {
        switch self {
        case .joined(let interface, let address): "joined interface=\(interface) address=\(address)"
        case .wrongKey: "wrong-key"
        case .networkNotFound: "network-not-found"
        case .associationRejected(let status): "association-rejected status=\(status)"
        case .timedOut: "timed-out"
        case .failed(let reason): "failed reason=\(reason)"
        }
    }
}
