import AccessoryCodecs

/// 802.11 information elements from a beacon or probe response: every
/// element framed, the known ones decoded, and the security they imply.
let informationElementsTarget = FuzzTarget(name: "information-elements") { bytes in
    let framed = try? InformationElements.elements(bytes[...])
    if let framed {
        expect(framed.reduce(0) { $0 + 2 + $1.body.count } <= bytes.count, "elements longer than their octets")
        for element in framed { expect(within(element.body, bytes), "an element body outside the input") }
    }
    guard let parsed = try? InformationElements.parse(bytes) else { return }
    expect(framed != nil, "parse accepted octets that do not frame as elements")
    expect(parsed.elements == framed, "parse framed the elements differently")
    _ = parsed.primaryChannel
    _ = parsed.band
    // The capability field's privacy bit decides between open and WEP when no element speaks.
    _ = security(fromIEs: parsed, capability: 0x0010)
    _ = security(fromIEs: parsed, capability: 0)
}
