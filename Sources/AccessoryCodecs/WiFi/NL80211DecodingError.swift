/// The nl80211 attributes a scan result is read from, named for errors.
public enum NL80211Field: String, Hashable, Sendable {
    case interfaceIndex, bss, bssid, frequency, capability, signalMBm, signalUnspecified
    case seenMillisecondsAgo, status, informationElements, beaconInformationElements
}

/// Why an nl80211 scan result could not be decoded.
public enum NL80211DecodingError: Error, Hashable, Sendable {
    /// The netlink framing itself is malformed.
    case netlink(NetlinkDecodingError)
    /// A message that is not a generic netlink message (NLMSG_DONE, NLMSG_ERROR…) where a
    /// scan result was expected.
    case notAScanResult(messageType: UInt16)
    /// A generic netlink command other than NL80211_CMD_NEW_SCAN_RESULTS.
    case unexpectedCommand(UInt8)
    /// A required attribute is absent.
    case missingAttribute(NL80211Field)
    /// An attribute is present but its payload has the wrong size or shape.
    case invalidAttribute(NL80211Field, NetlinkDecodingError)
    /// NL80211_BSS_BSSID is not 6 bytes.
    case invalidBSSIDLength(Int)
    /// NL80211_BSS_STATUS holds a value enum nl80211_bss_status does not define.
    case unknownBSSStatus(UInt32)
    /// The BSS's information elements are malformed.
    case informationElements(IEParsingError)
    /// The kernel answered the dump with NLMSG_ERROR.
    case kernelError(errno: Int32)
    /// The dump ended without NLMSG_DONE.
    case dumpNotTerminated
}
