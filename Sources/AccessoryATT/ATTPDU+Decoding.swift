import AccessoryCore

extension ATTPDU {
    /// Decodes one PDU. Every length is checked against the bytes; nothing
    /// the peer sends can trap.
    public init(decoding bytes: [UInt8]) throws(ATTDecodingError) {
        guard let first = bytes.first else { throw .emptyPDU }
        guard let opcode = ATTOpcode(rawValue: first) else { throw .unknownOpcode(first) }
        var reader = BluetoothByteReader(bytes, offset: 1)
        let length = bytes.count

        /// Fails unless the PDU is exactly `expected` octets.
        func requireLength(_ expected: Int) throws(ATTDecodingError) {
            guard length == expected else { throw .wrongLength(opcode, expected: expected, actual: length) }
        }
        func requireMinimum(_ minimum: Int) throws(ATTDecodingError) {
            guard length >= minimum else { throw .tooShort(opcode, minimum: minimum, actual: length) }
        }
        // After a length check these reads cannot fail; 0 keeps them trap-free anyway.
        func u16() -> UInt16 { reader.readUInt16LE() ?? 0 }
        func range() -> ATTHandleRange { ATTHandleRange(start: u16(), end: u16()) }
        func uuid() throws(ATTDecodingError) -> BluetoothUUID {
            let raw = reader.readRemaining()
            guard raw.count == 2 || raw.count == 16, let uuid = BluetoothUUID(littleEndianBytes: raw) else {
                throw .invalidUUIDLength(opcode, length: raw.count)
            }
            return uuid
        }

        switch opcode {
        case .errorResponse:
            try requireLength(5)
            let request = reader.readUInt8() ?? 0
            let handle = u16()
            self = .errorResponse(requestOpcode: request, handle: handle, error: ATTErrorCode(rawValue: reader.readUInt8() ?? 0))
        case .exchangeMTURequest:
            try requireLength(3)
            self = .exchangeMTURequest(clientRxMTU: u16())
        case .exchangeMTUResponse:
            try requireLength(3)
            self = .exchangeMTUResponse(serverRxMTU: u16())
        case .findInformationRequest:
            try requireLength(5)
            self = .findInformationRequest(range())
        case .findInformationResponse:
            try requireMinimum(2)
            let format = reader.readUInt8() ?? 0
            let uuidLength: Int
            switch format {
            case 1: uuidLength = 2
            case 2: uuidLength = 16
            default: throw .unknownInformationFormat(format)
            }
            let entries = try Self.entries(&reader, opcode: opcode, entryLength: 2 + uuidLength, minimum: 2 + uuidLength)
            self = .findInformationResponse(entries.map { entry in
                var fields = BluetoothByteReader(entry)
                let handle = fields.readUInt16LE() ?? 0
                // Exactly 2 or 16 octets remain, so the UUID always parses.
                let type = BluetoothUUID(littleEndianBytes: fields.readRemaining()) ?? BluetoothUUID(uuid16: 0)
                return ATTHandleType(handle: handle, type: type)
            })
        case .readByTypeRequest, .readByGroupTypeRequest:
            try requireMinimum(5)
            let handles = range()
            let type = try uuid()
            self = opcode == .readByTypeRequest
                ? .readByTypeRequest(handles, type: type) : .readByGroupTypeRequest(handles, type: type)
        case .readByTypeResponse:
            try requireMinimum(2)
            let entryLength = Int(reader.readUInt8() ?? 0)
            let entries = try Self.entries(&reader, opcode: opcode, entryLength: entryLength, minimum: 2)
            self = .readByTypeResponse(entries.map { entry in
                var fields = BluetoothByteReader(entry)
                return ATTHandleValue(handle: fields.readUInt16LE() ?? 0, value: fields.readRemaining())
            })
        case .readByGroupTypeResponse:
            try requireMinimum(2)
            let entryLength = Int(reader.readUInt8() ?? 0)
            let entries = try Self.entries(&reader, opcode: opcode, entryLength: entryLength, minimum: 4)
            self = .readByGroupTypeResponse(entries.map { entry in
                var fields = BluetoothByteReader(entry)
                return ATTGroupData(
                    handle: fields.readUInt16LE() ?? 0, endGroupHandle: fields.readUInt16LE() ?? 0,
                    value: fields.readRemaining())
            })
        case .readRequest:
            try requireLength(3)
            self = .readRequest(handle: u16())
        case .readResponse:
            self = .readResponse(value: reader.readRemaining())
        case .writeRequest, .handleValueNotification, .handleValueIndication:
            try requireMinimum(3)
            let handle = u16()
            let value = reader.readRemaining()
            switch opcode {
            case .writeRequest: self = .writeRequest(handle: handle, value: value)
            case .handleValueNotification: self = .handleValueNotification(handle: handle, value: value)
            default: self = .handleValueIndication(handle: handle, value: value)
            }
        case .writeResponse:
            try requireLength(1)
            self = .writeResponse
        case .handleValueConfirmation:
            try requireLength(1)
            self = .handleValueConfirmation
        }
    }

    /// Splits the rest of a list response into entries of `entryLength` octets.
    private static func entries(
        _ reader: inout BluetoothByteReader, opcode: ATTOpcode, entryLength: Int, minimum: Int
    ) throws(ATTDecodingError) -> [[UInt8]] {
        guard entryLength >= minimum else { throw .entryLengthTooShort(opcode, length: entryLength) }
        let dataLength = reader.remainingCount
        guard dataLength > 0 else { throw .noEntries(opcode) }
        guard dataLength % entryLength == 0 else {
            throw .partialEntry(opcode, entryLength: entryLength, dataLength: dataLength)
        }
        var entries: [[UInt8]] = []
        while let entry = reader.read(count: entryLength), !entry.isEmpty { entries.append(entry) }
        return entries
    }
}
