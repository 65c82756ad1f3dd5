import AccessoryCodecs
import AccessoryCore
import AccessoryPlatform
import CNetlink

/// One NL80211_CMD_TRIGGER_SCAN: on which interface, passive or probing for
/// SSIDs, on which frequencies.
public struct NL80211ScanRequest: Hashable, Sendable {
    public enum Probing: Hashable, Sendable {
        /// Listen for beacons only: no frame is sent.
        case passive
        /// Send probe requests for the wildcard SSID and for each of `ssids`
        /// (hidden networks answer only a probe that names them).
        case active(ssids: [SSID])
    }

    public var interfaceIndex: UInt32
    public var probing: Probing
    /// MHz; empty scans every frequency the radio supports.
    public var frequenciesMHz: [UInt32]

    public init(interfaceIndex: UInt32, probing: Probing, frequenciesMHz: [UInt32] = []) {
        self.interfaceIndex = interfaceIndex
        self.probing = probing
        self.frequenciesMHz = frequenciesMHz
    }

    /// The request's attributes. No NL80211_ATTR_SCAN_SSIDS at all makes the
    /// kernel scan passively; an empty SSID in it is the wildcard probe.
    public func attributes() throws(NetlinkEncodingError) -> [UInt8] {
        var writer = NetlinkAttributeWriter()
        try writer.append(type: UInt16(NL80211_ATTR_IFINDEX.rawValue), uint32: interfaceIndex)
        if case .active(let ssids) = probing {
            var probed: [[UInt8]] = [[]]
            for ssid in ssids where !ssid.bytes.isEmpty && !probed.contains(ssid.bytes) { probed.append(ssid.bytes) }
            try writer.appendNested(type: UInt16(NL80211_ATTR_SCAN_SSIDS.rawValue)) { list throws(NetlinkEncodingError) in
                // Nested list entries are numbered from 1; the kernel reads only their payloads.
                for (number, ssid) in probed.enumerated() {
                    try list.append(type: UInt16(number + 1), payload: ssid)
                }
            }
        }
        if !frequenciesMHz.isEmpty {
            try writer.appendNested(type: UInt16(NL80211_ATTR_SCAN_FREQUENCIES.rawValue)) { list throws(NetlinkEncodingError) in
                for (number, frequency) in frequenciesMHz.enumerated() {
                    try list.append(type: UInt16(number + 1), uint32: frequency)
                }
            }
        }
        return writer.bytes
    }

    /// The whole message, asking for an acknowledgement so a refusal (EBUSY) is seen.
    public func encode(familyID: UInt16, sequence: UInt32) throws(NetlinkEncodingError) -> [UInt8] {
        try GenericNetlinkMessage.encode(
            familyID: familyID,
            flags: NetlinkMessageHeader.Flags.request | NetlinkMessageHeader.Flags.acknowledge,
            sequence: sequence, command: NL80211.Command.triggerScan, version: 0,
            attributes: attributes())
    }
}
