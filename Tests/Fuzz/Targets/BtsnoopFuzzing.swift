import AccessoryCodecs

/// A btsnoop capture given to `accessoryd --replay`: the records up to the
/// first bad one, then their events through the advertising decoder as the
/// replay feeds them.
let btsnoopTarget = FuzzTarget(name: "btsnoop") { bytes in
    guard var reader = try? BtsnoopReader(bytes) else { return }
    var records: [BtsnoopRecord] = []
    while let record = try? reader.next() {
        expect(record.packet.count <= bytes.count, "a record longer than the capture")
        records.append(record)
    }
    // What was read writes back to a capture that reads the same.
    let writer = BtsnoopWriter(datalink: reader.datalink)
    if let file = try? writer.file(records) {
        let again = try? BtsnoopReader.records(in: file)
        expect(again == records, "a capture written from the records it was read into reads differently")
    }
    var decoder = AdvertisingReportDecoder()
    for record in records where record.opcode == .eventPacket {
        _ = decoder.advertisements(fromEventPacket: record.packet, controllerIndex: record.controllerIndex)
    }
}
