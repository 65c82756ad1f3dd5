import AccessoryATT
import AccessoryCore
import Testing

/// Encoding rules the capture does not cover: 128-bit UUIDs, notifications,
/// mixed-length list entries, every error code.
@Suite struct ATTEncodingTests {
    static let nordicUART = BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!

    @Test func oneHundredTwentyEightBitUUIDsTravelLeastSignificantFirst() throws {
        let request = ATTPDU.readByTypeRequest(ATTHandleRange(start: 1, end: 5), type: Self.nordicUART)
        #expect(request.encoded == bluetoothHex("08 0100 0500 9ecadc240ee5a9e093f3a3b50100406e"))
        #expect(try ATTPDU(decoding: request.encoded) == request)

        let information = ATTPDU.findInformationResponse([
            ATTHandleType(handle: 3, type: Self.nordicUART), ATTHandleType(handle: 4, type: BluetoothUUID(uuid16: 0x2902)),
        ])
        // One 128-bit type makes the whole response format 2.
        #expect(information.encoded.prefix(2) == [0x05, 0x02])
        #expect(information.encoded.count == 2 + 2 * 18)
        #expect(try ATTPDU(decoding: information.encoded) == information)
    }

    @Test func thirtyTwoBitAliasesAreSentAsFullUUIDs() {
        let request = ATTPDU.readByGroupTypeRequest(.all, type: BluetoothUUID(uuid32: 0x1234_5678))
        #expect(request.encoded.count == 5 + 16)
    }

    @Test func notificationRoundTrip() throws {
        let notification = ATTPDU.handleValueNotification(handle: 0x0003, value: Array("21.5 C".utf8))
        #expect(notification.encoded == bluetoothHex("1b 0300 32312e352043"))
        #expect(try ATTPDU(decoding: notification.encoded) == notification)
        #expect(try ATTPDU(decoding: [0x1B, 0x03, 0x00]) == .handleValueNotification(handle: 3, value: []))
    }

    @Test func listResponsesStopAtTheFirstEntryOfAnotherLength() {
        let response = ATTPDU.readByTypeResponse([
            ATTHandleValue(handle: 2, value: [1, 2]), ATTHandleValue(handle: 4, value: [3, 4]),
            ATTHandleValue(handle: 6, value: [5, 6, 7]), ATTHandleValue(handle: 8, value: [8, 9]),
        ])
        #expect(response.encoded == bluetoothHex("09 04 0200 0102 0400 0304"))
    }

    @Test func everyErrorCodeSurvivesARoundTrip() throws {
        for value in UInt8.min...UInt8.max {
            let code = ATTErrorCode(rawValue: value)
            #expect(code.rawValue == value)
            let pdu = ATTPDU.errorResponse(requestOpcode: 0x0A, handle: 7, error: code)
            #expect(try ATTPDU(decoding: pdu.encoded) == pdu)
        }
        #expect(ATTErrorCode(rawValue: 0x0A) == .attributeNotFound)
        #expect(ATTErrorCode(rawValue: 0x80) == .application(0x80))
        #expect(ATTErrorCode(rawValue: 0xFD) == .commonProfile(0xFD))
        #expect(ATTErrorCode(rawValue: 0x14) == .reserved(0x14))
        #expect(ATTErrorCode.attributeNotFound.description == "Attribute Not Found (0x0a)")
    }
}
