import AccessoryATT
import AccessoryCore
import Testing

/// ATT PDUs from real exchanges in the lab (Fixtures/bluetooth, see its README):
/// gatttool on hci0 discovers, reads and writes bluetoothd's GATT database on
/// hci1 (lab-att-exchange), and exchanges the MTU (lab-att-mtu-write).
@Suite struct ATTLabCaptureTests {
    /// One ATT PDU as captured, with the controller that sent or received it.
    struct CapturedPDU {
        var controller: UInt16
        var sent: Bool
        var bytes: [UInt8]
    }

    /// The ATT PDUs (L2CAP CID 4) of the capture's unfragmented ACL packets.
    static func capturedPDUs(_ file: String = "lab-att-exchange.btsnoop") throws -> [CapturedPDU] {
        try BluetoothFixtures.records(file).compactMap { record in
            guard record.opcode == .aclTxPacket || record.opcode == .aclRxPacket else { return nil }
            let acl = record.packet
            // ACL header: handle and flags (2), length (2); L2CAP: length (2), CID (2).
            guard acl.count >= 8 else { return nil }
            let boundary = acl[1] >> 4 & 0x3
            let l2capLength = Int(acl[4]) | Int(acl[5]) << 8
            let cid = UInt16(acl[6]) | UInt16(acl[7]) << 8
            guard boundary != 0x1, cid == 0x0004, l2capLength == acl.count - 8 else { return nil }
            return CapturedPDU(
                controller: record.controllerIndex ?? 0xFFFF, sent: record.opcode == .aclTxPacket,
                bytes: Array(acl[8...]))
        }
    }

    static func decoded(_ file: String = "lab-att-exchange.btsnoop") throws -> [(CapturedPDU, ATTPDU)] {
        try capturedPDUs(file).compactMap { pdu in (try? ATTPDU(decoding: pdu.bytes)).map { (pdu, $0) } }
    }

    @Test func everyCapturedPDUDecodesAndEncodesBackToItsBytes() throws {
        let captured = try Self.capturedPDUs()
        try #require(captured.count >= 40)
        for pdu in captured {
            // Find By Type Value (0x06/0x07) is the one opcode of the exchange this codec leaves out.
            if pdu.bytes[0] == 0x06 || pdu.bytes[0] == 0x07 {
                #expect(throws: ATTDecodingError.unknownOpcode(pdu.bytes[0])) { try ATTPDU(decoding: pdu.bytes) }
                continue
            }
            let decoded = try ATTPDU(decoding: pdu.bytes)
            #expect(decoded.encoded == pdu.bytes, "\(hexString(pdu.bytes))")
        }
    }

    @Test func primaryServicesOfBluetoothd() throws {
        let responses = try Self.decoded().filter { $0.0.controller == 1 && $0.0.sent }.compactMap { entry -> [ATTGroupData]? in
            if case .readByGroupTypeResponse(let groups) = entry.1 { return groups }
            return nil
        }
        let groups = try #require(responses.first)
        #expect(groups.map(\.handle) == [0x0001, 0x0008, 0x0012])
        #expect(groups.map(\.endGroupHandle) == [0x0007, 0x0011, 0x0014])
        #expect(groups.compactMap { BluetoothUUID(littleEndianBytes: $0.value) } == [
            BluetoothUUID(uuid16: 0x1800), BluetoothUUID(uuid16: 0x1801), BluetoothUUID(uuid16: 0x180A),
        ])
    }

    @Test func discoveryRequestsFromGatttool() throws {
        let requests = try Self.decoded().filter { $0.0.controller == 0 && $0.0.sent }.map(\.1)
        #expect(requests.contains(.readByGroupTypeRequest(.all, type: BluetoothUUID(uuid16: 0x2800))))
        #expect(requests.contains(.readByTypeRequest(.all, type: BluetoothUUID(uuid16: 0x2803))))
        #expect(requests.contains(.readRequest(handle: 0x0003)))
        #expect(requests.contains(.writeRequest(handle: 0x0003, value: [0x41, 0x42])))
    }

    @Test func characteristicDeclarationsAndInformation() throws {
        let sent = try Self.decoded().filter { $0.0.controller == 1 && $0.0.sent }.map(\.1)
        let declarations = sent.compactMap { pdu -> [ATTHandleValue]? in
            if case .readByTypeResponse(let entries) = pdu, entries.first?.value.count == 5 { return entries }
            return nil
        }
        // Device Name: properties 0x02 (read), value handle 0x0003, UUID 2A00.
        let first = try #require(declarations.first?.first)
        #expect(first == ATTHandleValue(handle: 0x0002, value: [0x02, 0x03, 0x00, 0x00, 0x2A]))
        let information = sent.compactMap { pdu -> [ATTHandleType]? in
            if case .findInformationResponse(let entries) = pdu { return entries }
            return nil
        }
        let entries = try #require(information.first)
        #expect(entries.first == ATTHandleType(handle: 0x0001, type: BluetoothUUID(uuid16: 0x2800)))
    }

    @Test func readResponseAndErrors() throws {
        let sent = try Self.decoded().filter { $0.0.controller == 1 && $0.0.sent }.map(\.1)
        #expect(sent.contains(.readResponse(value: Array("BlueZ 5.66".utf8))))
        #expect(sent.contains(.errorResponse(requestOpcode: 0x0A, handle: 0x0099, error: .invalidHandle)))
        #expect(sent.contains(.errorResponse(requestOpcode: 0x12, handle: 0x0003, error: .writeNotPermitted)))
        #expect(sent.contains { pdu in
            if case .errorResponse(0x10, _, .attributeNotFound) = pdu { return true }
            return false
        })
        // bluetoothd on hci1 asks gatttool for a bigger MTU, which gatttool does not support.
        let received = try Self.decoded().filter { $0.0.controller == 0 && !$0.0.sent }.map(\.1)
        #expect(received.contains(.exchangeMTURequest(clientRxMTU: 517)))
        #expect(try Self.decoded().contains { $0.1 == .errorResponse(requestOpcode: 0x02, handle: 0, error: .requestNotSupported) })
    }

    @Test func mtuExchangeAndWriteFromTheSecondCapture() throws {
        let captured = try Self.capturedPDUs("lab-att-mtu-write.btsnoop")
        try #require(captured.count >= 10)
        for pdu in captured { #expect(try ATTPDU(decoding: pdu.bytes).encoded == pdu.bytes) }
        let decoded = try Self.decoded("lab-att-mtu-write.btsnoop")
        let fromGatttool = decoded.filter { $0.0.controller == 0 && $0.0.sent }.map(\.1)
        let fromBluetoothd = decoded.filter { $0.0.controller == 1 && $0.0.sent }.map(\.1)
        #expect(fromGatttool.contains(.exchangeMTURequest(clientRxMTU: 100)))
        #expect(fromBluetoothd.contains(.exchangeMTUResponse(serverRxMTU: 517)))
        #expect(fromGatttool.contains(.writeRequest(handle: 0x000B, value: [0x02, 0x00])))
        #expect(fromBluetoothd.contains(.writeResponse))
    }
}
