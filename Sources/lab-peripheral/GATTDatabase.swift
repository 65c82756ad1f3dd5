import AccessoryATT
import AccessoryCore

/// The lab sensor's attribute table: one primary service holding one
/// readable characteristic. Handles start at 1, in declaration order. With
/// `requiresEncryption` the characteristic's value is read only over an
/// encrypted link, as a lock's or a medical sensor's is.
struct GATTDatabase {
    struct Attribute {
        var handle: UInt16
        var type: BluetoothUUID
        var value: [UInt8]
    }

    static let primaryService = GATTAttributeType.primaryService
    static let characteristic = GATTAttributeType.characteristic
    /// Characteristic properties: Read (Core Spec Vol 3 Part G §3.3.1.1).
    static let readProperty: UInt8 = 0x02

    let attributes: [Attribute]
    let service: BluetoothUUID
    /// The handle of the characteristic's value.
    let valueHandle: UInt16 = 0x0003
    let requiresEncryption: Bool

    init(service: BluetoothUUID, characteristic: BluetoothUUID, value: [UInt8], requiresEncryption: Bool = false) {
        self.service = service
        self.requiresEncryption = requiresEncryption
        attributes = [
            Attribute(handle: 0x0001, type: Self.primaryService, value: ATTPDU.uuidBytes(service)),
            Attribute(
                handle: 0x0002, type: Self.characteristic,
                value: [Self.readProperty, 0x03, 0x00] + ATTPDU.uuidBytes(characteristic)),
            Attribute(handle: 0x0003, type: characteristic, value: value),
        ]
    }

    /// The last handle of the service that starts at `handle`.
    func groupEnd(of handle: UInt16) -> UInt16 {
        let next = attributes.first { $0.handle > handle && $0.type == Self.primaryService }
        return next.map { $0.handle - 1 } ?? (attributes.last?.handle ?? handle)
    }

    func attribute(_ handle: UInt16) -> Attribute? { attributes.first { $0.handle == handle } }

    /// Whether reading `handle` needs an encrypted link.
    func isProtected(_ handle: UInt16) -> Bool { requiresEncryption && handle == valueHandle }

    func attributes(in range: ATTHandleRange) -> [Attribute] { attributes.filter { range.contains($0.handle) } }
}
