import AccessoryCore

/// Decodes nl80211 scan results: NL80211_CMD_NEW_SCAN_RESULTS messages as a
/// NL80211_CMD_GET_SCAN dump returns them (one BSS per message), into Core's `WiFiNetwork`.
///
/// Required: NL80211_ATTR_BSS, and in it BSSID, frequency, capability and the
/// information elements (the kernel always sends these); everything else is optional.
/// The nlmsghdr type is the family id the kernel assigned at run time, so it is not
/// checked here; the generic netlink command is.
public enum NL80211ScanResultDecoder {
    /// One whole netlink message (nlmsghdr included) to the Core model.
    public static func decode(message: [UInt8]) throws(NL80211DecodingError) -> WiFiNetwork {
        try decodeScanResult(message: message).network
    }

    /// The payload of NL80211_ATTR_BSS (the nested nl80211_bss attributes) to the Core model.
    public static func decode(
        bssAttributes payload: ArraySlice<UInt8>, interfaceIndex: UInt32? = nil
    ) throws(NL80211DecodingError) -> WiFiNetwork {
        try decodeScanResult(bssAttributes: payload, interfaceIndex: interfaceIndex).network
    }

    /// One whole netlink message, with every field nl80211 gave.
    public static func decodeScanResult(
        message: [UInt8]
    ) throws(NL80211DecodingError) -> NL80211ScanResult {
        let netlink: NetlinkMessage
        do { netlink = try NetlinkMessage(parsing: message) } catch { throw .netlink(error) }
        return try decodeScanResult(netlink)
    }

    public static func decodeScanResult(
        _ message: NetlinkMessage
    ) throws(NL80211DecodingError) -> NL80211ScanResult {
        guard message.header.type >= NetlinkMessageHeader.MessageType.firstFamilyType else {
            throw .notAScanResult(messageType: message.header.type)
        }
        let generic: GenericNetlinkMessage
        do { generic = try GenericNetlinkMessage(message) } catch { throw .netlink(error) }
        guard generic.command == NL80211.Command.newScanResults else {
            throw .unexpectedCommand(generic.command)
        }
        let attributes = generic.attributes
        let interfaceIndex = try optional(
            attributes, NL80211.Attribute.interfaceIndex, .interfaceIndex, as: UInt32.self)
        guard let bss = attributes[NL80211.Attribute.bss] else { throw .missingAttribute(.bss) }
        return try decodeScanResult(bssAttributes: bss.payload, interfaceIndex: interfaceIndex)
    }

    /// The payload of NL80211_ATTR_BSS, with every field nl80211 gave.
    public static func decodeScanResult(
        bssAttributes payload: ArraySlice<UInt8>, interfaceIndex: UInt32? = nil
    ) throws(NL80211DecodingError) -> NL80211ScanResult {
        let bss: NetlinkAttributes
        do { bss = try NetlinkAttributes(parsing: payload) } catch {
            throw .invalidAttribute(.bss, error)
        }
        typealias Key = NL80211.BSSAttribute

        guard let bssidAttribute = bss[Key.bssid] else { throw .missingAttribute(.bssid) }
        guard let bssid = BSSID(octets: bssidAttribute.payload) else {
            throw .invalidBSSIDLength(bssidAttribute.payload.count)
        }
        let frequency = try required(bss, Key.frequency, .frequency, as: UInt32.self)
        let capability = try required(bss, Key.capability, .capability, as: UInt16.self)
        let signalMBm = try optional(bss, Key.signalMBm, .signalMBm, as: Int32.self)
        let signalUnspecified = try optional(
            bss, Key.signalUnspecified, .signalUnspecified, as: UInt8.self)
        let seen = try optional(bss, Key.seenMillisecondsAgo, .seenMillisecondsAgo, as: UInt32.self)
        let rawStatus = try optional(bss, Key.status, .status, as: UInt32.self)
        var status: NL80211.BSSStatus?
        if let rawStatus {
            guard let known = NL80211.BSSStatus(rawValue: rawStatus) else {
                throw .unknownBSSStatus(rawStatus)
            }
            status = known
        }

        let elements = bss[Key.informationElements].map { Array($0.payload) }
        let beaconElements = bss[Key.beaconInformationElements].map { Array($0.payload) }
        guard let heard = elements ?? beaconElements else {
            throw .missingAttribute(.informationElements)
        }
        let parsedIEs: ParsedIEs
        do { parsedIEs = try InformationElements.parse(heard) } catch {
            throw .informationElements(error)
        }

        return NL80211ScanResult(
            interfaceIndex: interfaceIndex, bssid: bssid, frequencyMHz: frequency,
            signalMBm: signalMBm, signalUnspecified: signalUnspecified,
            seenMillisecondsAgo: seen, capability: capability, status: status,
            informationElements: heard, beaconInformationElements: beaconElements,
            parsedIEs: parsedIEs)
    }

    /// Every scan result of a GET_SCAN dump: netlink messages back to back (one or
    /// more datagrams), ending with NLMSG_DONE. NLMSG_ERROR ends it with the kernel's error.
    public static func decodeDump(_ bytes: [UInt8]) throws(NL80211DecodingError) -> [NL80211ScanResult] {
        var reader = NetlinkMessageReader(bytes)
        var results: [NL80211ScanResult] = []
        while true {
            let next: NetlinkMessage?
            do { next = try reader.next() } catch { throw .netlink(error) }
            guard let message = next else { throw .dumpNotTerminated }
            switch message.header.type {
            case NetlinkMessageHeader.MessageType.done:
                return results
            case NetlinkMessageHeader.MessageType.noop:
                continue
            case NetlinkMessageHeader.MessageType.error:
                let failure: NetlinkDecodingError?
                do { failure = try message.error() } catch { throw .netlink(error) }
                if case .kernelError(let errno)? = failure { throw .kernelError(errno: errno) }
                continue  // an acknowledgement
            default:
                results.append(try decodeScanResult(message))
            }
        }
    }

    // MARK: Integer attributes, with the field named in the error.

    private static func required<T: FixedWidthInteger>(
        _ attributes: NetlinkAttributes, _ type: UInt16, _ name: NL80211Field, as _: T.Type
    ) throws(NL80211DecodingError) -> T {
        guard let value = try optional(attributes, type, name, as: T.self) else {
            throw .missingAttribute(name)
        }
        return value
    }

    private static func optional<T: FixedWidthInteger>(
        _ attributes: NetlinkAttributes, _ type: UInt16, _ name: NL80211Field, as _: T.Type
    ) throws(NL80211DecodingError) -> T? {
        guard let attribute = attributes[type] else { return nil }
        do { return try attribute.integer(as: T.self) } catch { throw .invalidAttribute(name, error) }
    }
}
