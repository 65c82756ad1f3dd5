/// Why a reply from wpa_supplicant is not the one expected.
public enum WPAReplyError: Error, Hashable, Sendable {
    /// `FAIL` (or `FAIL-<WHY>`, the text after the dash kept).
    case failed(detail: String?)
    /// `FAIL-BUSY`: wpa_supplicant is in the middle of something; try later.
    case busy
    /// `UNKNOWN COMMAND`: this wpa_supplicant does not have the command.
    case unknownCommand
    /// An empty datagram.
    case empty
    /// Not `OK` where only `OK` (or a failure) may come; the first bytes, at most 32.
    case unexpected(prefix: [UInt8])
    /// Not a network id where `ADD_NETWORK` answers with one.
    case notANetworkID(prefix: [UInt8])
    /// A line of `STATUS` without `=`; its 1-based number.
    case statusLineWithoutSeparator(line: Int)
    /// A `STATUS` field whose value cannot be read (`bssid`, `id`, `ssid`, `ip_address`).
    case statusField(String)
    /// `LIST_NETWORKS` without its header line.
    case networkListHeaderMissing
    /// A `LIST_NETWORKS` row that is not id, SSID, BSSID and flags separated by tabs; its 1-based line.
    case networkListRow(line: Int)
    /// A `GET_NETWORK ssid` value neither quoted nor hex.
    case networkValue
    /// Escaped text (`\x`, `\` at the end) that does not decode; the byte offset.
    case escape(offset: Int)
}
