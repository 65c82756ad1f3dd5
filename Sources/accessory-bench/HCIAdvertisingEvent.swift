import AccessoryCodecs

/// What a controller sends for one heard payload: an LE Advertising Report
/// event (one ADV_NONCONN_IND report), the bytes the intake path starts from.
enum HCIAdvertisingEvent {
    static func bytes(payload: [UInt8], device: Int, rssi: Int8) -> [UInt8] {
        // Made in one array: the intake figure is measured with these events
        // made in the same run, and concatenations would weigh on it.
        var event: [UInt8] = []
        event.reserveCapacity(14 + payload.count)
        // LE Meta, its length; subevent 0x02, one report, ADV_NONCONN_IND, a random address.
        event += [0x3E, UInt8(12 + payload.count), 0x02, 0x01, 0x03, 0x01]
        for octet in 0..<6 { event.append(UInt8(truncatingIfNeeded: device >> (octet * 8))) }
        event.append(UInt8(payload.count))
        event += payload
        event.append(UInt8(bitPattern: rssi))
        return event
    }

    /// A btsnoop (Linux monitor) capture of `reports` events from hci0, 1 ms
    /// apart, cycling through the corpus and `devices` addresses: what the
    /// whole daemon replays.
    static func capture(_ corpus: AdvertisementCorpus, reports: Int, devices: Int) throws -> [UInt8] {
        let writer = BtsnoopWriter(datalink: .linuxMonitor)
        var file = writer.header
        file.reserveCapacity(reports * 60)
        for n in 0..<reports {
            let payload = corpus.payloads[n % corpus.payloads.count]
            let record = BtsnoopRecord(
                timestamp: BtsnoopRecord.unixEpochOffset + Int64(n) * 1_000, controllerIndex: 0, opcode: .eventPacket,
                packet: bytes(payload: payload, device: n % devices, rssi: -60 - Int8(n % 30)))
            file += try writer.encode(record)
        }
        return file
    }
}
