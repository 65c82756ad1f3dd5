import AccessoryCodecs

/// What a controller sends for one heard payload: an LE Advertising Report
/// event (one ADV_NONCONN_IND report), the bytes the intake path starts from.
enum HCIAdvertisingEvent {
    static func bytes(payload: [UInt8], device: Int, rssi: Int8) -> [UInt8] {
        let address = (0..<6).map { UInt8(truncatingIfNeeded: device >> ($0 * 8)) }
        // Subevent 0x02, one report, ADV_NONCONN_IND, a random address.
        let parameters: [UInt8] = [0x02, 0x01, 0x03, 0x01] + address + [UInt8(payload.count)] + payload
            + [UInt8(bitPattern: rssi)]
        return [0x3E, UInt8(parameters.count)] + parameters
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
