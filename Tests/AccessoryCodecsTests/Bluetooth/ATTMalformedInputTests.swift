import AccessoryATT
import AccessoryCore
import Testing

/// Hostile or broken ATT PDUs get a named error, never a trap.
@Suite struct ATTMalformedInputTests {
    static let cases: [(hex: String, error: ATTDecodingError)] = [
        ("", .emptyPDU),
        ("06 0100 ffff 0018", .unknownOpcode(0x06)),  // Find By Type Value: not spoken
        ("ff", .unknownOpcode(0xFF)),
        ("02 17", .wrongLength(.exchangeMTURequest, expected: 3, actual: 2)),
        ("03 1700 00", .wrongLength(.exchangeMTUResponse, expected: 3, actual: 4)),
        ("01 0a 0300", .wrongLength(.errorResponse, expected: 5, actual: 4)),
        ("0a 03", .wrongLength(.readRequest, expected: 3, actual: 2)),
        ("04 0100 ff", .wrongLength(.findInformationRequest, expected: 5, actual: 4)),
        ("13 00", .wrongLength(.writeResponse, expected: 1, actual: 2)),
        ("10 0100 ffff", .invalidUUIDLength(.readByGroupTypeRequest, length: 0)),
        ("10 0100 ffff 002800", .invalidUUIDLength(.readByGroupTypeRequest, length: 3)),
        ("08 0100 ffff 03280000", .invalidUUIDLength(.readByTypeRequest, length: 4)),
        ("08 0100", .tooShort(.readByTypeRequest, minimum: 5, actual: 3)),
        ("05", .tooShort(.findInformationResponse, minimum: 2, actual: 1)),
        ("05 03 0100 0028", .unknownInformationFormat(3)),
        ("05 01 0100 00", .partialEntry(.findInformationResponse, entryLength: 4, dataLength: 3)),
        ("05 02 0100 0028", .partialEntry(.findInformationResponse, entryLength: 18, dataLength: 4)),
        ("09 01 0100", .entryLengthTooShort(.readByTypeResponse, length: 1)),
        ("09 00", .entryLengthTooShort(.readByTypeResponse, length: 0)),
        ("09 07", .noEntries(.readByTypeResponse)),
        ("09 07 0200 02030000 2a 04", .partialEntry(.readByTypeResponse, entryLength: 7, dataLength: 8)),
        ("11 03 0100 07", .entryLengthTooShort(.readByGroupTypeResponse, length: 3)),
        ("11 06", .noEntries(.readByGroupTypeResponse)),
        ("11 06 0100 0700 0018 0800", .partialEntry(.readByGroupTypeResponse, entryLength: 6, dataLength: 8)),
        ("12 03", .tooShort(.writeRequest, minimum: 3, actual: 2)),
        ("1b", .tooShort(.handleValueNotification, minimum: 3, actual: 1)),
        ("1d 03", .tooShort(.handleValueIndication, minimum: 3, actual: 2)),
    ]

    @Test(arguments: 0..<cases.count)
    func malformedPDUIsRefusedWithItsReason(index: Int) {
        let (hex, error) = Self.cases[index]
        #expect(throws: error) { try ATTPDU(decoding: bluetoothHex(hex)) }
    }

    /// Every prefix of every valid PDU either decodes or gets a named error.
    @Test func truncatedValidPDUsNeverTrap() throws {
        let valid = ["11 06 0100 0700 0018 0800 1100 0118", "09 07 0200 02 0300 002a", "05 01 0100 0028 0200 0328",
                     "05 02 0100 9ecadc240ee5a9e0 93f3a3b5 0100406e", "01 0a 0300 0a", "1b 0300 3231"]
        for hex in valid {
            let bytes = bluetoothHex(hex)
            // The whole PDU decodes to what encodes back to the same bytes.
            #expect(try ATTPDU(decoding: bytes).encoded == bytes, "\(hex)")
            #expect(throws: (any Error).self, "no opcode is no PDU") { try ATTPDU(decoding: []) }
            for length in 1..<bytes.count {
                // A prefix that decodes is a PDU of its own: it encodes back to itself, never to the whole.
                if let pdu = try? ATTPDU(decoding: Array(bytes.prefix(length))) {
                    #expect(pdu.encoded == Array(bytes.prefix(length)), "\(hex) cut at \(length)")
                }
            }
        }
    }
}
