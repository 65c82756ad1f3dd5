import AccessoryCodecs

/// A stream of HCI event packets through the decoder the scanner and replay
/// share: reports, extended fragments joined by the reassembler, AD parsed.
/// The input is framed by the events' own headers (code, length, parameters);
/// a frame cut short at the end is fed as it is.
let advertisingReportsTarget = FuzzTarget(name: "advertising-reports") { bytes in
    let reassembler = ExtendedAdvertisingReassembler(maximumDataLength: 400, maximumPendingAdvertisements: 4)
    var decoder = AdvertisingReportDecoder(reassembler: reassembler)
    var offset = 0
    while offset < bytes.count {
        let end = offset + 1 < bytes.count ? min(bytes.count, offset + 2 + Int(bytes[offset + 1])) : bytes.count
        let advertisements = decoder.advertisements(fromEventPacket: bytes[offset..<end])
        for advertisement in advertisements {
            expect(advertisement.rawAdvertisingData.count <= reassembler.maximumDataLength,
                   "a reassembled advertisement beyond the reassembler's limit")
        }
        expect(decoder.reassembler.pendingCount <= reassembler.maximumPendingAdvertisements,
               "more pending advertisements than the reassembler's limit")
        offset = end
    }
    expect(decoder.drops.total >= 0, "a negative drop count")
    decoder.reset()
    expect(decoder.reassembler.pendingCount == 0, "fragments pending after a reset")
}
