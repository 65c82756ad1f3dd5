import AccessoryCodecs
import Testing

@Suite("Netlink attributes")
struct NetlinkAttributeTests {
    @Test func readsTypesLengthsAndSkipsPadding() throws {
        // u8 5 = 7 (len 5, padded to 8), then u32 3 = 0x0f (len 8).
        let bytes: [UInt8] = [0x05, 0x00, 0x05, 0x00, 0x07, 0, 0, 0, 0x08, 0x00, 0x03, 0x00, 0x0F, 0, 0, 0]
        let attributes = try NetlinkAttributes(parsing: bytes)
        #expect(attributes.types == [5, 3])
        #expect(try attributes[5]?.uint8() == 7)
        #expect(attributes[5]?.payload.count == 1)
        #expect(try attributes[3]?.uint32() == 15)
        #expect(attributes[4] == nil)
    }

    @Test func masksTheNestedAndByteOrderFlags() throws {
        let bytes: [UInt8] = [0x08, 0x00, 0x2F, 0x80, 0x04, 0x00, 0x01, 0x00,
                              0x08, 0x00, 0x06, 0x40, 0x00, 0x00, 0x01, 0x02]
        let attributes = try NetlinkAttributes(parsing: bytes)
        let nested = try #require(attributes[47])
        #expect(nested.isNested)
        #expect(!nested.isNetworkByteOrder)
        #expect(try nested.nested().types == [1])
        let bigEndian = try #require(attributes[6])
        #expect(bigEndian.isNetworkByteOrder)
        #expect(try bigEndian.uint32() == 0x0102)
    }

    @Test func theLastOfARepeatedTypeWinsAndAllAreKept() throws {
        var writer = NetlinkAttributeWriter()
        try writer.append(type: 9, uint16: 1)
        try writer.append(type: 9, uint16: 2)
        let attributes = try NetlinkAttributes(parsing: writer.bytes)
        #expect(try attributes[9]?.uint16() == 2)
        #expect(attributes.all.count == 2)
    }

    @Test func acceptsAMissingPadAfterTheLastAttribute() throws {
        let attributes = try NetlinkAttributes(parsing: [0x05, 0x00, 0x01, 0x00, 0xAA])
        #expect(attributes[1]?.payload == [0xAA])
    }

    @Test func aLengthBelowTheHeaderIsNamed() {
        #expect(throws: NetlinkDecodingError.attributeLengthTooShort(offset: 0, length: 3)) {
            try NetlinkAttributes(parsing: [0x03, 0x00, 0x01, 0x00])
        }
        // Zero would otherwise never advance.
        #expect(throws: NetlinkDecodingError.attributeLengthTooShort(offset: 4, length: 0)) {
            try NetlinkAttributes(parsing: [0x04, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00])
        }
    }

    @Test func aLengthPastTheEndIsNamed() {
        #expect(throws: NetlinkDecodingError.attributeLengthPastEnd(offset: 0, length: 9, available: 8)) {
            try NetlinkAttributes(parsing: [0x09, 0x00, 0x01, 0x00, 1, 2, 3, 4])
        }
        #expect(throws: NetlinkDecodingError.attributeLengthPastEnd(offset: 0, length: 0xFFFF, available: 4)) {
            try NetlinkAttributes(parsing: [0xFF, 0xFF, 0x01, 0x00])
        }
    }

    @Test func aTruncatedHeaderIsNamed() {
        #expect(throws: NetlinkDecodingError.attributeHeaderTruncated(offset: 4, available: 3)) {
            try NetlinkAttributes(parsing: [0x04, 0x00, 0x01, 0x00, 0x04, 0x00, 0x01])
        }
    }

    @Test func typedReadsCheckThePayloadSize() throws {
        let attributes = try NetlinkAttributes(parsing: [0x06, 0x00, 0x02, 0x00, 0x01, 0x02, 0, 0])
        let attribute = try #require(attributes[2])
        #expect(try attribute.uint16() == 0x0201)
        #expect(throws: NetlinkDecodingError.attributePayloadSize(type: 2, expected: 4, actual: 2)) {
            try attribute.uint32()
        }
        #expect(throws: NetlinkDecodingError.attributePayloadSize(type: 2, expected: 8, actual: 2)) {
            try attribute.uint64()
        }
    }

    @Test func theWriterRoundTripsEveryWidthAndNesting() throws {
        var writer = NetlinkAttributeWriter()
        try writer.append(type: 1, uint8: 0xAB)
        try writer.append(type: 2, uint16: 0xBEEF)
        try writer.append(type: 3, uint32: 0xDEAD_BEEF)
        try writer.append(type: 4, int32: -3000)
        try writer.append(type: 5, uint64: 0x0102_0304_0506_0708)
        try writer.appendNested(type: 6) { (inner) throws(NetlinkEncodingError) in
            try inner.append(type: 1, payload: [1, 2, 3])
        }
        #expect(writer.bytes.count % 4 == 0)
        let attributes = try NetlinkAttributes(parsing: writer.bytes)
        #expect(try attributes[1]?.uint8() == 0xAB)
        #expect(try attributes[2]?.uint16() == 0xBEEF)
        #expect(try attributes[3]?.uint32() == 0xDEAD_BEEF)
        #expect(try attributes[4]?.int32() == -3000)
        #expect(try attributes[5]?.uint64() == 0x0102_0304_0506_0708)
        let nested = try #require(attributes[6])
        #expect(nested.isNested)
        #expect(try nested.nested()[1]?.payload == [1, 2, 3])
    }

    @Test func theWriterRefusesWhatDoesNotFit() {
        var writer = NetlinkAttributeWriter()
        #expect(throws: NetlinkEncodingError.attributeTooLong(type: 1, payloadLength: 65532)) {
            try writer.append(type: 1, payload: [UInt8](repeating: 0, count: 65532))
        }
        #expect(throws: NetlinkEncodingError.attributeTypeOutOfRange(0x8001)) {
            try writer.append(type: 0x8001, payload: [])
        }
        #expect(writer.bytes.isEmpty)
    }
}

@Suite("Netlink messages")
struct NetlinkMessageTests {
    @Test func aGenericMessageRoundTrips() throws {
        var attributes = NetlinkAttributeWriter()
        try attributes.append(type: NL80211.Attribute.interfaceIndex, uint32: 15)
        let bytes = try GenericNetlinkMessage.encode(
            familyID: 32, flags: NetlinkMessageHeader.Flags.request | NetlinkMessageHeader.Flags.dump,
            sequence: 2, command: NL80211.Command.getScan, attributes: attributes.bytes)
        #expect(bytes.count == 16 + 4 + 8)
        let message = try GenericNetlinkMessage(parsing: bytes)
        #expect(message.header.length == 28)
        #expect(message.header.type == 32)
        #expect(message.header.flags == 0x301)
        #expect(message.header.sequence == 2)
        #expect(message.command == NL80211.Command.getScan)
        #expect(message.version == 1)
        #expect(try message.attributes[NL80211.Attribute.interfaceIndex]?.uint32() == 15)
    }

    @Test func theCapturedDumpIsFourteenResultsThenDone() throws {
        var reader = NetlinkMessageReader(try WiFiLabFixtures.scanDump())
        var types: [UInt16] = []
        while let message = try reader.next() {
            types.append(message.header.type)
            #expect(message.header.sequence == 2)
        }
        #expect(types == Array(repeating: 32, count: 14) + [NetlinkMessageHeader.MessageType.done])
    }

    @Test func framingErrorsAreNamed() {
        #expect(throws: NetlinkDecodingError.messageHeaderTruncated(offset: 0, available: 15)) {
            try NetlinkMessage(parsing: [UInt8](repeating: 0, count: 15))
        }
        #expect(throws: NetlinkDecodingError.messageLengthTooShort(offset: 0, length: 15)) {
            try NetlinkMessage(parsing: [15, 0, 0, 0] + [UInt8](repeating: 0, count: 12))
        }
        #expect(throws: NetlinkDecodingError.messageLengthPastEnd(offset: 0, length: 17, available: 16)) {
            try NetlinkMessage(parsing: [17, 0, 0, 0] + [UInt8](repeating: 0, count: 12))
        }
        #expect(throws: NetlinkDecodingError.genericHeaderTruncated(available: 3)) {
            try GenericNetlinkMessage(parsing: [19, 0, 0, 0, 32] + [UInt8](repeating: 0, count: 14))
        }
    }

    @Test func anErrorMessageCarriesTheErrno() throws {
        // NLMSG_ERROR with error -16 (EBUSY), then the offending header.
        let bytes: [UInt8] = [36, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,
                              0xF0, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 16)
        let message = try NetlinkMessage(parsing: bytes)
        #expect(try message.error() == .kernelError(errno: -16))
        #expect(throws: NL80211DecodingError.kernelError(errno: -16)) {
            try NL80211ScanResultDecoder.decodeDump(bytes)
        }
    }
}
