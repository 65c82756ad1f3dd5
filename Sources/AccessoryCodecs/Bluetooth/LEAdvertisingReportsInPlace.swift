import AccessoryCore

/// One legacy advertising report read in place from the event packet: its
/// AD is borrowed, valid only inside the closure that receives it.
public struct BorrowedLEAdvertisingReport {
    public let eventType: LEAdvertisingReport.EventType
    public let device: BluetoothDeviceIdentifier
    public let data: UnsafeRawBufferPointer
    /// In dBm; nil when the controller sent 127 ("not available").
    public let rssi: Int8?

    /// The report as `HCIEvent.decode` gives it, its AD copied.
    public var report: LEAdvertisingReport {
        LEAdvertisingReport(eventType: eventType, device: device, data: Array(data), rssi: rssi)
    }
}

extension LEAdvertisingReport {
    /// Calls `body` with each report of an LE Advertising Report event
    /// packet (no H4 indicator), read where it lies: nothing is copied.
    /// Returns false, having called nothing, unless the packet is such an
    /// event laid out exactly as `HCIEvent.decode` requires; any other
    /// packet, damaged ones included, is for the full decoder, which names
    /// what is wrong.
    public static func forEachReportInPlace(
        inEventPacket packet: UnsafeRawBufferPointer, _ body: (BorrowedLEAdvertisingReport) -> Void
    ) -> Bool {
        // Event code, parameter length, subevent, Num_Reports; then per report
        // event type, address type, six address octets, data length, data, RSSI.
        guard packet.count >= 4, packet[0] == HCIEvent.leMetaCode, Int(packet[1]) == packet.count - 2,
            packet[2] == LEMetaEvent.advertisingReportSubevent, packet[3] > 0
        else { return false }
        let count = Int(packet[3])
        let fixedLength = 9  // event type, address type, address, data length
        // First pass: every report must be whole and known, and fill the packet exactly.
        var offset = 4
        for _ in 0..<count {
            guard packet.count - offset >= fixedLength + 1,
                EventType(rawValue: packet[offset]) != nil,
                BluetoothAddressType(rawValue: packet[offset + 1]) != nil
            else { return false }
            let length = Int(packet[offset + 8])
            guard length <= maximumDataLength, packet.count - offset >= fixedLength + length + 1 else { return false }
            offset += fixedLength + length + 1
        }
        guard offset == packet.count else { return false }
        offset = 4
        for _ in 0..<count {
            let length = Int(packet[offset + 8])
            let rssi = Int8(bitPattern: packet[offset + fixedLength + length])
            // A `bdaddr_t`, least significant octet first; read here rather than through a
            // generic initialiser, which an unoptimised build would run unspecialised.
            var address: UInt64 = 0
            for octet in 0..<6 { address |= UInt64(packet[offset + 2 + octet]) << UInt64(8 * octet) }
            body(BorrowedLEAdvertisingReport(
                eventType: EventType(rawValue: packet[offset])!,
                device: BluetoothDeviceIdentifier(
                    address: HardwareAddress(rawValue: address)!,
                    addressType: BluetoothAddressType(rawValue: packet[offset + 1])!),
                data: UnsafeRawBufferPointer(rebasing: packet[(offset + fixedLength)..<(offset + fixedLength + length)]),
                rssi: rssi == hciNotAvailable ? nil : rssi))
            offset += fixedLength + length + 1
        }
        return true
    }
}
