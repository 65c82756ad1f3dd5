import AccessoryCodecs

/// An NL80211_CMD_GET_SCAN dump as the kernel returns it, and a single
/// scan result message, to the networks the agent matches against.
let nl80211ScanTarget = FuzzTarget(name: "nl80211-scan") { bytes in
    if let results = try? NL80211ScanResultDecoder.decodeDump(bytes) {
        expect(results.count <= bytes.count / NetlinkMessageHeader.length, "more scan results than messages")
    }
    _ = try? NL80211ScanResultDecoder.decode(message: bytes)
    // The BSS attributes alone, as nested in NL80211_ATTR_BSS.
    _ = try? NL80211ScanResultDecoder.decode(bssAttributes: bytes[...], interfaceIndex: 3)
}
