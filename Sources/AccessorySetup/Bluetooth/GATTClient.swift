import AccessoryATT
import AccessoryCore
import AccessoryPlatform

/// A small GATT client over a handed-over channel: finds a service's
/// characteristic by UUIDs the way a GATT client does (Read By Group Type for
/// primary services, Read By Type for characteristic declarations) and reads
/// its value. Blocking, one request at a time: enough for reading a sensor;
/// an app with more to do speaks ATT over `BluetoothChannel.fileDescriptor` itself.
public struct GATTClient: Sendable {
    let bearer: ATTBearer
    /// The channel whose socket the bearer speaks over, held as long as the
    /// client is: releasing it closes the socket.
    private let channel: BluetoothChannel?

    public init(_ channel: BluetoothChannel) {
        bearer = ATTBearer(fd: channel.fileDescriptor)
        self.channel = channel
    }

    public init(fileDescriptor: Int32) {
        bearer = ATTBearer(fd: fileDescriptor)
        channel = nil
    }

    public enum Failure: Error, CustomStringConvertible {
        case bearer(ATTBearer.Failure)
        case notFound(String)
        case error(ATTErrorCode, String)
        case unexpected(ATTPDU)

        public var description: String {
            switch self {
            case .bearer(let failure): "\(failure)"
            case .notFound(let what): "\(what) not found"
            case .error(let code, let what): "\(what): \(code)"
            case .unexpected(let pdu): "unexpected \(pdu.opcode)"
            }
        }
    }

    public func exchangeMTU(_ mtu: UInt16) throws(Failure) -> UInt16 {
        switch try ask(.exchangeMTURequest(clientRxMTU: mtu)) {
        case .exchangeMTUResponse(let server): return min(mtu, server)
        case .errorResponse: return ATTPDU.defaultLEMTU
        case let other: throw .unexpected(other)
        }
    }

    /// The handle range of the primary service `service`.
    public func findService(_ service: BluetoothUUID) throws(Failure) -> ATTHandleRange {
        var start: UInt16 = 1
        while true {
            let response = try ask(.readByGroupTypeRequest(ATTHandleRange(start: start, end: 0xFFFF), type: GATTAttributeType.primaryService))
            guard case .readByGroupTypeResponse(let groups) = response else {
                if case .errorResponse(_, _, .attributeNotFound) = response { throw .notFound("service \(service)") }
                throw .unexpected(response)
            }
            if let match = groups.first(where: { BluetoothUUID(littleEndianBytes: $0.value) == service }) {
                return ATTHandleRange(start: match.handle, end: match.endGroupHandle)
            }
            guard let last = groups.last, last.endGroupHandle < 0xFFFF else { throw .notFound("service \(service)") }
            start = last.endGroupHandle + 1
        }
    }

    /// The value handle of `characteristic` within `range`.
    public func findCharacteristic(_ characteristic: BluetoothUUID, in range: ATTHandleRange) throws(Failure) -> UInt16 {
        var start = range.start
        while start <= range.end {
            let response = try ask(.readByTypeRequest(ATTHandleRange(start: start, end: range.end), type: GATTAttributeType.characteristic))
            guard case .readByTypeResponse(let declarations) = response else {
                if case .errorResponse(_, _, .attributeNotFound) = response { break }
                throw .unexpected(response)
            }
            // A declaration's value: properties (1), value handle (2), UUID (2 or 16).
            for declaration in declarations where declaration.value.count >= 5 {
                let value = declaration.value
                if BluetoothUUID(littleEndianBytes: value[3...]) == characteristic {
                    return UInt16(value[1]) | UInt16(value[2]) << 8
                }
            }
            guard let last = declarations.last?.handle, last < range.end else { break }
            start = last + 1
        }
        throw .notFound("characteristic \(characteristic)")
    }

    public func read(_ handle: UInt16) throws(Failure) -> [UInt8] {
        switch try ask(.readRequest(handle: handle)) {
        case .readResponse(let value): return value
        case .errorResponse(_, _, let code): throw .error(code, "read 0x\(String(handle, radix: 16))")
        case let other: throw .unexpected(other)
        }
    }

    private func ask(_ pdu: ATTPDU) throws(Failure) -> ATTPDU {
        do { return try bearer.request(pdu) } catch { throw .bearer(error) }
    }

    /// Finds and reads `characteristic` of `service` in one go.
    public func readCharacteristic(_ characteristic: BluetoothUUID, of service: BluetoothUUID) throws(Failure) -> [UInt8] {
        _ = try exchangeMTU(ATTPDU.defaultLEMTU)
        return try read(findCharacteristic(characteristic, in: findService(service)))
    }
}
