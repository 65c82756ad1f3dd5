import AccessoryCodecs
import AccessoryPlatform
import AccessoryRadios

/// Netlink datagrams from the kernel: messages, their generic netlink
/// headers, attributes nested to any depth, and the nl80211 events the
/// scanner listens for. No attribute may point outside the datagram.
let netlinkTarget = FuzzTarget(name: "netlink") { bytes in
    var messages = NetlinkMessageReader(bytes)
    while let message = try? messages.next() {
        expect(within(message.payload, bytes), "a message payload outside the datagram")
        _ = try? message.error()
        _ = try? NL80211Event.decode(message, familyID: message.header.type)
        if let generic = try? GenericNetlinkMessage(message) {
            walk(generic.attributes, in: bytes, depth: 0)
        }
    }
    // The same octets as a bare run of attributes, read one by one.
    var attributes = NetlinkAttributeReader(bytes)
    while let attribute = try? attributes.next() {
        expect(within(attribute.payload, bytes), "an attribute payload outside the input")
    }
}

/// Every attribute, and every one that parses as nested, its children: at
/// most as deep as the datagram could hold headers, and a little more.
private func walk(_ attributes: NetlinkAttributes, in bytes: [UInt8], depth: Int) {
    expect(depth <= bytes.count / NetlinkAttribute.headerLength, "nesting deeper than the octets allow")
    for attribute in attributes.all {
        expect(within(attribute.payload, bytes), "an attribute payload outside the datagram")
        expect(attributes[attribute.type] != nil, "an attribute the lookup does not find")
        _ = try? attribute.uint32()
        if let children = try? attribute.nested() { walk(children, in: bytes, depth: depth + 1) }
    }
}

func within(_ slice: ArraySlice<UInt8>, _ bytes: [UInt8]) -> Bool {
    slice.startIndex >= 0 && slice.endIndex <= bytes.count && slice.startIndex <= slice.endIndex
}
