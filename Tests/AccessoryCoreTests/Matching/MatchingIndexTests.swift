import Testing
@testable import AccessoryCore

@Suite struct MatchingIndexTests {
    let apple: UInt16 = 0x004C
    var named: AdvertisingData { AdvertisingData(completeLocalName: Build.name("Acme Sensor"), manufacturerData: [apple: [0x02, 0x15]]) }

    @Test func resultsCarryTheAppOfEachDescriptor() throws {
        var index = MatchingIndex()
        try index.insert(.init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "Acme"), id: 1, app: "alpha")
        try index.insert(.init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "Sensor"), id: 1, app: "beta")
        try index.insert(.init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "Other"), id: 2, app: "beta")
        #expect(index.matches(Build.advertisement(named)) == [
            DescriptorMatch(app: "alpha", descriptorID: 1), DescriptorMatch(app: "beta", descriptorID: 1),
        ])
    }

    /// Whatever app A adds or removes, app B is given exactly what it was given alone.
    @Test func oneAppsDescriptorsDoNotAffectAnothers() throws {
        let adverts = [
            Build.advertisement(1, named),
            Build.advertisement(2, AdvertisingData(completeLocalName: Build.name("Acme"), serviceData: [BluetoothUUID("FCD2")!: [0x40]])),
            Build.advertisement(3, AdvertisingData(manufacturerData: [apple: [0x12, 0x19]])),
        ]
        var alone = MatchingIndex()
        try alone.insert(.init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "Acme"), id: 1, app: "b")
        let expected = adverts.map { alone.matches($0) }

        var shared = alone
        // A's descriptors overlap B's on every key, including the same descriptor id.
        try shared.insert(.init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "Acme"), id: 1, app: "a")
        try shared.insert(.init(bluetoothServiceUUID: BluetoothUUID("FCD2"), bluetoothNameSubstring: "A"), id: 2, app: "a")
        try shared.insert(.init(bluetoothCompanyIdentifier: apple, bluetoothManufacturerDataBlob: [0x12], bluetoothManufacturerDataMask: [0xFF]), id: 3, app: "a")
        for (advert, alone) in zip(adverts, expected) {
            #expect(shared.matches(advert).filter { $0.app == "b" } == alone)
            #expect(shared.matches(advert).allSatisfy { $0.app == "a" || $0.app == "b" })
        }
        shared.removeAll(of: "a")
        #expect(adverts.map { shared.matches($0) } == expected)
        #expect(shared.descriptorIDs(of: "a").isEmpty)
        #expect(shared.descriptorIDs(of: "b") == [1])
    }

    /// One company's data heard twice with different content: a descriptor matches if any value does.
    @Test func anyValueOfACompanyMatches() throws {
        var index = MatchingIndex()
        try index.insert(.init(bluetoothCompanyIdentifier: apple, bluetoothManufacturerDataBlob: [0x12], bluetoothManufacturerDataMask: [0xFF]), id: 1, app: "a")
        var data = AdvertisingData(manufacturerData: [apple: [0x10, 0x05]])
        #expect(index.matches(Build.advertisement(data)).isEmpty)
        data.addManufacturerData([0x12, 0x19], for: apple)
        #expect(index.matches(Build.advertisement(data)) == [DescriptorMatch(app: "a", descriptorID: 1)])
    }

    @Test func insertReplacesTheSameKeyAndRemoveUnfiles() throws {
        var index = MatchingIndex()
        let key = DescriptorMatch(app: "a", descriptorID: 5)
        try index.insert(.init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "Acme"), id: 5, app: "a")
        try index.insert(.init(bluetoothServiceUUID: BluetoothUUID("180F"), bluetoothNameSubstring: "Acme"), id: 5, app: "a")
        #expect(index.count == 1)
        #expect(index.matches(Build.advertisement(named)).isEmpty, "the company-keyed version is gone")
        #expect(index[key]?.bluetoothServiceUUID == BluetoothUUID("180F"))
        #expect(index.remove(key) != nil)
        #expect(index.remove(key) == nil)
        #expect(index.isEmpty)
        // A freed slot is reused without leaving the old descriptor filed anywhere.
        try index.insert(.init(ssidPrefix: Array("ACME".utf8)), id: 9, app: "c")
        #expect(index.matches(Build.advertisement(named)).isEmpty)
        #expect(index.matches(Build.network(Array("ACME-1".utf8))) == [DescriptorMatch(app: "c", descriptorID: 9)])
    }

    @Test func invalidReplacementKeepsTheOldDescriptor() throws {
        var index = MatchingIndex()
        try index.insert(.init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "Acme"), id: 1, app: "a")
        #expect(throws: DiscoveryDescriptorError.missingBluetoothCriterion) {
            try index.insert(.init(bluetoothCompanyIdentifier: apple), id: 1, app: "a")
        }
        #expect(index.matches(Build.advertisement(named)).count == 1)
    }

    @Test func wifiPrefixesOfEveryLength() throws {
        var index = MatchingIndex()
        try index.insert(.init(ssidPrefix: Array("A".utf8)), id: 1, app: "a")
        try index.insert(.init(ssidPrefix: Array("AC".utf8)), id: 2, app: "a")
        try index.insert(.init(ssidPrefix: Array(repeating: 0x41, count: 32)), id: 3, app: "b")
        try index.insert(.init(ssid: SSID("ACME")), id: 4, app: "b")
        #expect(index.matches(Build.network(Array("ACME".utf8))).map(\.descriptorID).sorted() == [1, 2, 4])
        #expect(index.matches(Build.network(Array(repeating: 0x41, count: 32))).map(\.descriptorID).sorted() == [1, 3])
        index.remove(DescriptorMatch(app: "a", descriptorID: 1))
        #expect(index.matches(Build.network(Array("ACME".utf8))).map(\.descriptorID).sorted() == [2, 4])
    }

    @Test func descriptorForBothRadiosMatchesEach() throws {
        var index = MatchingIndex()
        try index.insert(.init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "Acme", ssidPrefix: Array("ACME-".utf8)), id: 1, app: "a")
        #expect(index.matches(Build.advertisement(named)).count == 1)
        #expect(index.matches(Build.network(Array("ACME-77".utf8))).count == 1)
        index.remove(DescriptorMatch(app: "a", descriptorID: 1))
        #expect(index.matches(Build.network(Array("ACME-77".utf8))).isEmpty)
    }
}
