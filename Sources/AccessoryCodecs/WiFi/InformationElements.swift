import AccessoryCore

/// Parses a run of 802.11 information elements (a beacon's or probe response's
/// body after the fixed fields, or nl80211's NL80211_BSS_INFORMATION_ELEMENTS).
public enum InformationElements {
    /// Every element, checked for length only.
    public static func elements(
        _ bytes: ArraySlice<UInt8>
    ) throws(IEParsingError) -> [InformationElement] {
        var reader = InformationElementReader(bytes)
        var elements: [InformationElement] = []
        while let element = try reader.next() { elements.append(element) }
        return elements
    }

    /// The elements, and the ones this package understands decoded. A malformed
    /// element this package interprets is an error; unknown elements are kept as they are.
    public static func parse(_ bytes: ArraySlice<UInt8>) throws(IEParsingError) -> ParsedIEs {
        var parsed = ParsedIEs()
        parsed.elements = try elements(bytes)
        for element in parsed.elements {
            try apply(element, to: &parsed)
        }
        return parsed
    }

    public static func parse(_ bytes: [UInt8]) throws(IEParsingError) -> ParsedIEs {
        try parse(bytes[...])
    }

    private static func apply(
        _ element: InformationElement, to parsed: inout ParsedIEs
    ) throws(IEParsingError) {
        let body = element.body
        switch element.id {
        case InformationElement.ID.ssid where parsed.ssid == nil:
            guard let ssid = SSID(bytes: body) else { throw .ssidTooLong(length: body.count) }
            parsed.ssid = ssid
        case InformationElement.ID.supportedRates, InformationElement.ID.extendedSupportedRates:
            parsed.supportedRates += body
        case InformationElement.ID.dsParameterSet where parsed.dsChannel == nil:
            guard body.count == 1, let channel = body.first else {
                throw .dsParameterSetLength(body.count)
            }
            parsed.dsChannel = channel
        case InformationElement.ID.htOperation where parsed.htOperation == nil:
            parsed.htOperation = try HTOperation(parsing: body)
        case InformationElement.ID.vhtOperation where parsed.vhtOperation == nil:
            parsed.vhtOperation = try VHTOperation(parsing: body)
        case InformationElement.ID.rsn where parsed.rsn == nil:
            parsed.rsn = try RSNElement(parsing: body)
        case InformationElement.ID.vendorSpecific:
            if parsed.wpa == nil, WPAElement.matches(vendorBody: body) {
                parsed.wpa = try WPAElement(parsingVendorBody: body)
            } else if parsed.oweTransition == nil, OWETransitionElement.matches(vendorBody: body) {
                parsed.oweTransition = try OWETransitionElement(parsingVendorBody: body)
            }
        case InformationElement.ID.elementIDExtension
        where body.first == InformationElement.ExtensionID.heOperation && parsed.heOperation == nil:
            parsed.heOperation = try HEOperation(parsing: body.dropFirst())
        default:
            break
        }
    }
}
