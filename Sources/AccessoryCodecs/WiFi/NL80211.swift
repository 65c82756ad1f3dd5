/// nl80211 numbers this package reads, copied by name from the kernel UAPI header
/// <linux/nl80211.h> (Debian 12's linux-libc-dev 6.1). Written out here so the codecs
/// stay pure Swift; the values are ABI and never renumbered.
public enum NL80211 {
    /// The generic netlink family name to resolve through CTRL_CMD_GETFAMILY.
    public static let familyName = "nl80211"

    /// enum nl80211_commands.
    public enum Command {
        public static let getScan: UInt8 = 32  // NL80211_CMD_GET_SCAN
        public static let triggerScan: UInt8 = 33  // NL80211_CMD_TRIGGER_SCAN
        public static let newScanResults: UInt8 = 34  // NL80211_CMD_NEW_SCAN_RESULTS
        public static let scanAborted: UInt8 = 35  // NL80211_CMD_SCAN_ABORTED
    }

    /// enum nl80211_attrs (top-level attributes).
    public enum Attribute {
        public static let wiphy: UInt16 = 1  // NL80211_ATTR_WIPHY
        public static let interfaceIndex: UInt16 = 3  // NL80211_ATTR_IFINDEX
        public static let generation: UInt16 = 46  // NL80211_ATTR_GENERATION
        public static let bss: UInt16 = 47  // NL80211_ATTR_BSS (nested enum nl80211_bss)
        public static let wirelessDevice: UInt16 = 153  // NL80211_ATTR_WDEV
    }

    /// enum nl80211_bss (attributes nested in NL80211_ATTR_BSS).
    public enum BSSAttribute {
        public static let bssid: UInt16 = 1  // NL80211_BSS_BSSID, 6 bytes
        public static let frequency: UInt16 = 2  // NL80211_BSS_FREQUENCY, u32 MHz
        public static let tsf: UInt16 = 3  // NL80211_BSS_TSF, u64
        public static let beaconInterval: UInt16 = 4  // NL80211_BSS_BEACON_INTERVAL, u16 TU
        public static let capability: UInt16 = 5  // NL80211_BSS_CAPABILITY, u16
        public static let informationElements: UInt16 = 6  // NL80211_BSS_INFORMATION_ELEMENTS
        public static let signalMBm: UInt16 = 7  // NL80211_BSS_SIGNAL_MBM, s32 (dBm * 100)
        public static let signalUnspecified: UInt16 = 8  // NL80211_BSS_SIGNAL_UNSPEC, u8 0…100
        public static let status: UInt16 = 9  // NL80211_BSS_STATUS, u32 enum nl80211_bss_status
        public static let seenMillisecondsAgo: UInt16 = 10  // NL80211_BSS_SEEN_MS_AGO, u32
        public static let beaconInformationElements: UInt16 = 11  // NL80211_BSS_BEACON_IES
        public static let channelWidth: UInt16 = 12  // NL80211_BSS_CHAN_WIDTH, u32
        public static let beaconTSF: UInt16 = 13  // NL80211_BSS_BEACON_TSF, u64
        public static let probeResponseData: UInt16 = 14  // NL80211_BSS_PRESP_DATA, flag
        public static let lastSeenBootTime: UInt16 = 15  // NL80211_BSS_LAST_SEEN_BOOTTIME, u64 ns
        public static let pad: UInt16 = 16  // NL80211_BSS_PAD
        public static let frequencyOffset: UInt16 = 20  // NL80211_BSS_FREQUENCY_OFFSET, u32 kHz
    }

    /// enum nl80211_bss_status: present only for the BSS this interface is using.
    public enum BSSStatus: UInt32, Hashable, Sendable {
        case authenticated = 0  // NL80211_BSS_STATUS_AUTHENTICATED
        case associated = 1  // NL80211_BSS_STATUS_ASSOCIATED
        case ibssJoined = 2  // NL80211_BSS_STATUS_IBSS_JOINED
    }
}
