import AccessoryCore

/// An unsolicited message from an ATTACHed control socket, by what it says.
public enum WPAEvent: Hashable, Sendable {
    /// `CTRL-EVENT-CONNECTED - Connection to <bssid> completed [id=N id_str=]`
    case connected(bssid: BSSID?, networkID: WPANetworkID?)
    /// `CTRL-EVENT-DISCONNECTED bssid=<bssid> reason=N [locally_generated=1]`
    case disconnected(bssid: BSSID?, reason: UInt16?, locallyGenerated: Bool)
    /// `CTRL-EVENT-SSID-TEMP-DISABLED id=N ssid="…" auth_failures=N duration=N reason=WRONG_KEY`
    case temporarilyDisabled(networkID: WPANetworkID?, reason: String)
    /// `CTRL-EVENT-SSID-REENABLED id=N ssid="…"`
    case reenabled(networkID: WPANetworkID?)
    /// `CTRL-EVENT-NETWORK-NOT-FOUND`: a scan ended without any enabled network.
    case networkNotFound
    /// `CTRL-EVENT-ASSOC-REJECT [bssid=<bssid>] status_code=N …`
    case associationRejected(bssid: BSSID?, status: UInt16)
    /// `CTRL-EVENT-AUTH-REJECT <bssid> auth_type=N auth_transaction=N status_code=N`
    case authenticationRejected(status: UInt16)
    /// `WPA: 4-Way Handshake failed - pre-shared key may be incorrect`
    case fourWayHandshakeFailed
    case scanStarted
    case scanResults
    case scanFailed
    /// `CTRL-EVENT-TERMINATING`: wpa_supplicant is exiting.
    case terminating
    /// Anything else, by its first word (`Trying`, `CTRL-EVENT-REGDOM-CHANGE`, …).
    case other(String)
}

/// An event and the level wpa_supplicant sent it at (`<N>`: 0 msgdump … 4 error).
public struct WPAEventMessage: Hashable, Sendable {
    public var level: UInt8
    public var event: WPAEvent
}

/// Why an event datagram could not be read.
public enum WPAEventError: Error, Hashable, Sendable {
    /// Not `<N>` before the text (a reply on an event socket, or garbage).
    case missingLevel
    /// The event lacks a field it always carries.
    case missingField(event: String, field: String)
    /// A field whose value is not what it should be (a status code that is not a number, …).
    case malformedField(event: String, field: String)
}
