import AccessoryCodecs
import AccessoryCore

/// AD structures as a device sends them, then the merge of an advertisement
/// with its scan response. The first octet splits the rest into the
/// advertisement's data and the scan response's.
let advertisingDataTarget = FuzzTarget(name: "advertising-data") { bytes in
    guard let split = bytes.first else { return }
    let rest = bytes.dropFirst()
    let cut = rest.startIndex + min(Int(split), rest.count)
    let advertised = checkedReading(rest[..<cut])
    let response = checkedReading(rest[cut...])

    // The scan response adds to the advertisement: every UUID of either, once, the advertisement's first.
    let merged = advertised.adding(response)
    for (mergedList, mine, theirs) in [
        (merged.completeServiceUUIDs, advertised.completeServiceUUIDs, response.completeServiceUUIDs),
        (merged.incompleteServiceUUIDs, advertised.incompleteServiceUUIDs, response.incompleteServiceUUIDs),
    ] {
        expect(Array(mergedList.prefix(mine.count)) == mine, "the merge reordered the advertisement's UUIDs")
        expect(Set(mergedList) == Set(mine).union(theirs), "the merge lost or invented a UUID")
        expect(mergedList.count - mine.count == Set(theirs).subtracting(mine).count, "the merge repeated a UUID")
    }
    for (company, values) in response.manufacturerDataValues {
        for value in values {
            expect(merged.manufacturerDataValues[company]?.contains(value) == true, "the merge lost manufacturer data")
        }
    }
    expect(merged.completeLocalName == (advertised.completeLocalName ?? response.completeLocalName),
           "the merge took the scan response's name over the advertisement's")
    // A packet overlaid on itself changes nothing.
    expect(advertised.overlaying(advertised) == advertised, "overlaying a packet on itself changed it")

    // The same two packets as reports of one device, in both orders: the data must not flip.
    let device = BluetoothDeviceIdentifier(address: BluetoothAddress("C0:FF:EE:00:00:01")!, addressType: .random)
    let indication = Advertisement(LEAdvertisingReport(eventType: .connectableUndirected, device: device, data: Array(rest[..<cut]), rssi: -40))
    let scanResponse = Advertisement(LEAdvertisingReport(eventType: .scanResponse, device: device, data: Array(rest[cut...]), rssi: -41))
    let heardFirst = indication.merging(scanResponse)
    let heardLast = scanResponse.merging(indication)
    expect(heardFirst.data == heardLast.data, "the merged data depends on which packet came last")
    expect(heardFirst.merging(scanResponse).data == heardFirst.data, "hearing a scan response again changed the data")
}

/// The lenient reading, checked against the strict one: strict succeeds exactly
/// when the lenient reading found no damage, with the same data.
private func checkedReading(_ bytes: ArraySlice<UInt8>) -> AdvertisingData {
    let reading = AdvertisingDataParser.read(bytes)
    for damage in reading.damage {
        expect(offset(of: damage) < bytes.count, "damage reported beyond the input")
    }
    do {
        let strict = try AdvertisingDataParser.parse(bytes)
        expect(reading.damage.isEmpty, "parse accepted what read found damaged")
        expect(strict == reading.data, "parse and read disagree on clean data")
    } catch {
        expect(reading.damage.first == error, "parse threw other than read's first damage")
    }
    if let name = reading.data.localNameBytes {
        expect(name.last != 0, "a name kept its trailing NUL")
    }
    return reading.data
}

private func offset(of damage: ADParsingError) -> Int {
    switch damage {
    case .structureLengthPastEnd(let offset, _, _), .invalidUUIDListLength(_, let offset, _),
        .serviceDataTooShort(_, let offset, _), .manufacturerDataTooShort(let offset, _),
        .invalidAppearanceLength(let offset, _), .invalidTXPowerLevelLength(let offset, _):
        return offset
    }
}
