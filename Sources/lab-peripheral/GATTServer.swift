import AccessoryATT
import AccessoryCore

/// Answers a client's ATT requests from the database: discovery, reads,
/// MTU; writes are refused (the sensor's value is read-only). Pure: a
/// request's bytes and whether the link is encrypted in, the response's
/// bytes out (nil when none is due). A protected value read over a link
/// without encryption gets Insufficient Authentication, what a bonded
/// accessory answers a central it has no keys for.
struct GATTServer {
    let database: GATTDatabase
    /// What this server can receive.
    static let serverRxMTU: UInt16 = 64
    private(set) var mtu = Int(ATTPDU.defaultLEMTU)

    init(database: GATTDatabase) { self.database = database }

    mutating func respond(to bytes: [UInt8], encrypted: Bool) -> [UInt8]? {
        let request: ATTPDU
        do {
            request = try ATTPDU(decoding: bytes)
        } catch {
            guard let opcode = bytes.first, opcode & 0x40 == 0 else { return nil }  // commands get no answer
            let code: ATTErrorCode = if case .unknownOpcode = error { .requestNotSupported } else { .invalidPDU }
            return ATTPDU.errorResponse(requestOpcode: opcode, handle: 0, error: code).encoded
        }
        return response(to: request, encrypted: encrypted)?.encoded
    }

    private mutating func response(to request: ATTPDU, encrypted: Bool) -> ATTPDU? {
        func failure(_ handle: UInt16, _ error: ATTErrorCode) -> ATTPDU {
            .errorResponse(requestOpcode: request.opcode.rawValue, handle: handle, error: error)
        }
        switch request {
        case .exchangeMTURequest(let clientRxMTU):
            mtu = Int(max(ATTPDU.defaultLEMTU, min(clientRxMTU, Self.serverRxMTU)))
            return .exchangeMTUResponse(serverRxMTU: Self.serverRxMTU)
        case .readByGroupTypeRequest(let range, let type):
            guard range.isValid else { return failure(range.start, .invalidHandle) }
            guard type == GATTDatabase.primaryService else { return failure(range.start, .unsupportedGroupType) }
            let groups = database.attributes(in: range).filter { $0.type == type }.map {
                ATTGroupData(handle: $0.handle, endGroupHandle: database.groupEnd(of: $0.handle), value: $0.value)
            }
            return groups.isEmpty ? failure(range.start, .attributeNotFound) : .readByGroupTypeResponse(fitting(groups))
        case .readByTypeRequest(let range, let type):
            guard range.isValid else { return failure(range.start, .invalidHandle) }
            let matching = database.attributes(in: range).filter { $0.type == type }
            if !encrypted, let first = matching.first, database.isProtected(first.handle) {
                return failure(first.handle, .insufficientAuthentication)
            }
            let found = matching.map {
                ATTHandleValue(handle: $0.handle, value: Array($0.value.prefix(mtu - 4)))
            }
            return found.isEmpty ? failure(range.start, .attributeNotFound) : .readByTypeResponse(fitting(found))
        case .findInformationRequest(let range):
            guard range.isValid else { return failure(range.start, .invalidHandle) }
            let found = database.attributes(in: range).map { ATTHandleType(handle: $0.handle, type: $0.type) }
            guard let first = found.first else { return failure(range.start, .attributeNotFound) }
            // One format per response: entries as wide as the first's UUID.
            let short = (first.type.shortValue ?? .max) <= 0xFFFF
            let sameFormat = found.prefix { ((($0.type.shortValue ?? .max) <= 0xFFFF) == short) }
            return .findInformationResponse(Array(sameFormat.prefix((mtu - 2) / (short ? 4 : 18))))
        case .readRequest(let handle):
            guard let attribute = database.attribute(handle) else { return failure(handle, .invalidHandle) }
            if !encrypted && database.isProtected(handle) { return failure(handle, .insufficientAuthentication) }
            return .readResponse(value: Array(attribute.value.prefix(mtu - 1)))
        case .writeRequest(let handle, _):
            return failure(handle, database.attribute(handle) == nil ? .invalidHandle : .writeNotPermitted)
        case .handleValueIndication:
            return .handleValueConfirmation
        case .errorResponse, .exchangeMTUResponse, .findInformationResponse, .readByTypeResponse, .readResponse,
            .readByGroupTypeResponse, .writeResponse, .handleValueNotification, .handleValueConfirmation:
            return nil
        }
    }

    /// As many entries as fit in one PDU of the agreed MTU.
    private func fitting<Entry>(_ entries: [Entry]) -> [Entry] where Entry: ATTListEntry {
        guard let first = entries.first else { return [] }
        let perEntry = first.encodedLength
        return Array(entries.prefix(max(1, (mtu - 2) / perEntry)))
    }
}

protocol ATTListEntry { var encodedLength: Int { get } }
extension ATTGroupData: ATTListEntry { var encodedLength: Int { 4 + value.count } }
extension ATTHandleValue: ATTListEntry { var encodedLength: Int { 2 + value.count } }
