import AccessoryCodecs
import AccessoryCore
import Testing
@testable import AccessoryDecisions

/// The steady state of the intake: a device the registry knows, re-sending
/// the payload it sent last, is neither copied, parsed nor matched again,
/// and ends in the same state as the full path (copy, parse, merge, match) would leave.
@Suite struct IntakeRepeatTests {
    static let device = BluetoothDeviceIdentifier(address: BluetoothAddress(rawValue: 0xC0_FFEE_000001)!, addressType: .random)
    /// Flags, Apple manufacturer data, a name: what the descriptors below look at.
    static let payload: [UInt8] = [0x02, 0x01, 0x06, 0x05, 0xFF, 0x4C, 0x00, 0x12, 0x34]
        + [0x0C, 0x09] + Array("Acme Sensor".utf8)
    static let otherPayload: [UInt8] = [0x02, 0x01, 0x06, 0x05, 0xFF, 0x4C, 0x00, 0x12, 0x35]
    static let scanResponse: [UInt8] = [0x05, 0x09] + Array("Acme".utf8) + [0x03, 0x03, 0x0F, 0x18]

    /// One LE Advertising Report event with one report, as a controller sends it.
    static func event(_ payload: [UInt8], eventType: UInt8 = 0x00, rssi: Int8) -> [UInt8] {
        let address = (0..<6).map { UInt8(truncatingIfNeeded: device.address.rawValue >> UInt64(8 * $0)) }
        let parameters: [UInt8] = [0x02, 0x01, eventType, 0x01] + address + [UInt8(payload.count)] + payload
            + [UInt8(bitPattern: rssi)]
        return [0x3E, UInt8(parameters.count)] + parameters
    }

    static func index() throws -> MatchingIndex {
        var index = MatchingIndex()
        var byCompany = DiscoveryDescriptor()
        byCompany.bluetoothCompanyIdentifier = 0x004C
        byCompany.bluetoothManufacturerDataBlob = [0x12, 0x34]
        byCompany.bluetoothManufacturerDataMask = [0xFF, 0xFF]
        try index.insert(byCompany, id: DescriptorID(1), app: AppID("app.one"))
        var byName = DiscoveryDescriptor()
        byName.bluetoothCompanyIdentifier = 0x004C
        byName.bluetoothNameSubstring = "acme"
        byName.bluetoothNameSubstringCompareOptions = .caseInsensitive
        try index.insert(byName, id: DescriptorID(2), app: AppID("app.two"))
        var near = DiscoveryDescriptor()
        near.bluetoothCompanyIdentifier = 0x004C
        near.bluetoothNamePattern = "Acme*"
        near.bluetoothRange = .immediate
        try index.insert(near, id: DescriptorID(3), app: AppID("app.three"))
        return index
    }

    /// What the fast path leaves (merged advertisement, smoothed RSSI,
    /// presence, events) is what parsing and matching every report leaves,
    /// through scan responses, changed payloads, RSSI crossing a floor and a
    /// descriptor removed on the way.
    @Test func repeatsEndWhereTheFullPathEnds() throws {
        let fastClock = ManualClock()
        let fullClock = ManualClock()
        let fast = DiscoveryPipeline(clock: fastClock)
        let full = DiscoveryPipeline(clock: fullClock)
        fast.index = try Self.index()
        full.index = fast.index
        var fastEvents: [PresenceEvent] = []
        var fullEvents: [PresenceEvent] = []
        fast.onPresence { fastEvents.append($0) }
        full.onPresence { fullEvents.append($0) }
        let fastIngest = AdvertisingReportIngest(pipeline: fast)
        let fullIngest = AdvertisingReportIngest { full.record($0) }
        let rssis: [Int8] = [-40, -40, -70, -70, -70, -45, -30, -30, 127, -90, -90, -30]
        var step = 0
        func hear(_ payload: [UInt8], eventType: UInt8 = 0x00) {
            let event = Self.event(payload, eventType: eventType, rssi: rssis[step % rssis.count])
            step += 1
            fastClock.advance(by: .milliseconds(100))
            fullClock.advance(by: .milliseconds(100))
            fastIngest.ingest(event: event, controller: 0)
            fullIngest.ingest(event: event, controller: 0)
        }
        func expectSame(_ comment: Comment) throws {
            let a = try #require(fast.registry[.bluetooth(Self.device)])
            let b = try #require(full.registry[.bluetooth(Self.device)])
            #expect(a.advertisement == b.advertisement, comment)
            #expect(a.rssi == b.rssi, comment)
            #expect(a.lastMatched == b.lastMatched, comment)
            #expect(a.lastHeard == b.lastHeard, comment)
            #expect(fastEvents == fullEvents, comment)
        }
        for _ in 0..<4 { hear(Self.payload) }
        try expectSame("repeats")
        hear(Self.scanResponse, eventType: 0x04)
        hear(Self.scanResponse, eventType: 0x04)
        hear(Self.payload)
        try expectSame("with a scan response")
        for _ in 0..<6 { hear(Self.otherPayload) }
        try expectSame("a changed payload, repeated")
        fast.index.remove(DescriptorMatch(app: AppID("app.two"), descriptorID: DescriptorID(2)))
        full.index.remove(DescriptorMatch(app: AppID("app.two"), descriptorID: DescriptorID(2)))
        for _ in 0..<3 { hear(Self.otherPayload) }
        hear(Self.payload)
        hear(Self.payload)
        try expectSame("after the index changed")
        fullClock.advance(by: .seconds(3600))
        fastClock.advance(by: .seconds(3600))
        fast.expire()
        full.expire()
        for _ in 0..<3 { hear(Self.payload) }
        try expectSame("heard again after it was lost")
        #expect(fastIngest.advertisementCount == fullIngest.advertisementCount)
    }

    /// Damage is counted on every report, repeats included.
    @Test func aRepeatedDamagedPayloadIsCountedEachTime() {
        let pipeline = DiscoveryPipeline(clock: ManualClock())
        let ingest = AdvertisingReportIngest(pipeline: pipeline)
        // Appearance of 1 octet: dropped, the flags kept.
        let damaged: [UInt8] = [0x02, 0x01, 0x06, 0x02, 0x19, 0x01]
        for _ in 0..<3 { ingest.ingest(event: Self.event(damaged, rssi: -50), controller: 0) }
        #expect(ingest.allDrops[.invalidAppearanceLength] == 3)
        #expect(ingest.advertisementCount == 3)
    }
}
