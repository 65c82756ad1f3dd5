import AccessoryCore

extension ATTPDU {
    /// The PDU's octets. List responses hold entries of one length only, so
    /// entries after the first whose length differs are left out, as a server
    /// does (Core Spec Vol 3 Part F §3.4.4.2); values too long for the length
    /// octet are cut, as the specification allows for these responses.
    public var encoded: [UInt8] {
        var out: [UInt8] = [opcode.rawValue]
        func put16(_ value: UInt16) { out += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }
        func putRange(_ range: ATTHandleRange) { put16(range.start); put16(range.end) }

        switch self {
        case .errorResponse(let request, let handle, let error):
            out.append(request)
            put16(handle)
            out.append(error.rawValue)
        case .exchangeMTURequest(let mtu), .exchangeMTUResponse(let mtu):
            put16(mtu)
        case .findInformationRequest(let range):
            putRange(range)
        case .findInformationResponse(let entries):
            let short = entries.allSatisfy { ($0.type.shortValue ?? .max) <= 0xFFFF }
            out.append(short ? 1 : 2)
            for entry in entries {
                put16(entry.handle)
                out += Self.uuidBytes(entry.type, allowShort: short)
            }
        case .readByTypeRequest(let range, let type), .readByGroupTypeRequest(let range, let type):
            putRange(range)
            out += Self.uuidBytes(type, allowShort: true)
        case .readByTypeResponse(let entries):
            let valueLength = min(entries.first?.value.count ?? 0, 253)
            out.append(UInt8(2 + valueLength))
            for entry in entries.prefix(while: { min($0.value.count, 253) == valueLength }) {
                put16(entry.handle)
                out += entry.value.prefix(valueLength)
            }
        case .readByGroupTypeResponse(let entries):
            let valueLength = min(entries.first?.value.count ?? 0, 251)
            out.append(UInt8(4 + valueLength))
            for entry in entries.prefix(while: { min($0.value.count, 251) == valueLength }) {
                put16(entry.handle)
                put16(entry.endGroupHandle)
                out += entry.value.prefix(valueLength)
            }
        case .readRequest(let handle):
            put16(handle)
        case .readResponse(let value):
            out += value
        case .writeRequest(let handle, let value), .handleValueNotification(let handle, let value),
            .handleValueIndication(let handle, let value):
            put16(handle)
            out += value
        case .writeResponse, .handleValueConfirmation:
            break
        }
        return out
    }

    /// A UUID as ATT carries it, in PDUs and in declaration values: 2 octets
    /// for a 16-bit alias (when allowed), else all 16, least significant first.
    /// 32-bit aliases travel as 128-bit UUIDs in ATT (Core Spec Vol 3 Part F §3.2.1).
    public static func uuidBytes(_ uuid: BluetoothUUID, allowShort: Bool = true) -> [UInt8] {
        if allowShort, let short = uuid.shortValue, short <= 0xFFFF {
            return [UInt8(truncatingIfNeeded: short), UInt8(truncatingIfNeeded: short >> 8)]
        }
        return uuid.bytes.reversed()
    }
}
