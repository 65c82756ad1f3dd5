import Testing
@testable import AccessoryCore

@Suite struct AdvertisementMergingTests {
    let device = Build.device(0xC0FF_EE00_0001)

    @Test func scanResponseAddsItsDataAndKeepsTheAdvertisingPDU() {
        let advert = Advertisement(
            device: device, properties: [.connectable, .scannable, .legacy], rssi: -70, primaryPHY: .le1M,
            data: AdvertisingData(flags: 0x06, completeServiceUUIDs: [Build.uuid("180F")]),
            rawAdvertisingData: [0x02, 0x01, 0x06])
        let response = Advertisement(
            device: device, properties: [.scanResponse, .legacy], rssi: -68,
            data: AdvertisingData(completeLocalName: Build.name("Acme Sensor"), manufacturerData: [0x004C: [1, 2]]),
            rawAdvertisingData: [0x0C, 0x09])
        let merged = advert.merging(response)
        #expect(merged.data.flags == 0x06)
        #expect(merged.data.completeServiceUUIDs == [Build.uuid("180F")])
        #expect(merged.data.localName == "Acme Sensor")
        #expect(merged.data.manufacturerData == [0x004C: [1, 2]])
        #expect(merged.rssi == -68)
        // The advertising PDU's facts stay; the response's bytes go beside them.
        #expect(merged.properties == [.connectable, .scannable, .legacy])
        #expect(merged.primaryPHY == .le1M)
        #expect(merged.rawAdvertisingData == [0x02, 0x01, 0x06])
        #expect(merged.rawScanResponse == [0x0C, 0x09])
    }

    @Test func newAdvertisementReplacesRadioFactsAndKeepsTheName() {
        let first = Advertisement(
            device: device, properties: [.scannable], rssi: -80, primaryPHY: .le1M,
            data: AdvertisingData(completeLocalName: Build.name("Old"), manufacturerData: [0x0059: [9]]))
        let next = Advertisement(
            device: device, properties: [.connectable], rssi: nil, primaryPHY: .leCoded, secondaryPHY: .le2M,
            data: AdvertisingData(manufacturerData: [0x0059: [10]]), rawAdvertisingData: [1])
        let merged = first.merging(next)
        #expect(merged.properties == [.connectable])
        #expect(merged.primaryPHY == .leCoded)
        #expect(merged.secondaryPHY == .le2M)
        #expect(merged.rssi == -80, "an unknown RSSI (127 on the air) keeps the last known one")
        #expect(merged.data.manufacturerData[0x0059] == [10])
        #expect(merged.data.localName == "Old")
    }

    @Test func reportFromAnotherDeviceIsNotMerged() {
        let mine = Advertisement(device: device, data: AdvertisingData(completeLocalName: Build.name("Mine")))
        let other = Advertisement(device: Build.device(2), data: AdvertisingData(shortenedLocalName: Build.name("Other")))
        #expect(mine.merging(other) == other)
    }

    @Test func sameAddressWithAnotherTypeIsAnotherDevice() {
        let publicDevice = BluetoothDeviceIdentifier(address: device.address, addressType: .public)
        let mine = Advertisement(device: device, data: AdvertisingData(completeLocalName: Build.name("Mine")))
        let other = Advertisement(device: publicDevice, data: AdvertisingData())
        #expect(mine.merging(other).data.localName == nil)
    }

    /// A newer packet of the same kind: per key, the newer value replaces the old.
    @Test func serviceDataAndManufacturerDataOverlayPerKey() {
        let a = AdvertisingData(serviceData: [Build.uuid("FCD2"): [0x40, 0x01]], manufacturerData: [1: [1], 2: [2]])
        let b = AdvertisingData(serviceData: [Build.uuid("FE2C"): [0x00]], manufacturerData: [2: [22]])
        let merged = a.overlaying(b)
        #expect(merged.serviceData == [Build.uuid("FCD2"): [0x40, 0x01], Build.uuid("FE2C"): [0x00]])
        #expect(merged.manufacturerData == [1: [1], 2: [22]])
    }

    /// A scan response: UUID lists joined in order without repeats, maps
    /// added per key, a company in both keeps both values, the
    /// advertisement's single values stand.
    @Test func scanResponseIsAddedFieldByField() {
        let advertised = AdvertisingData(
            flags: 0x06, completeLocalName: Build.name("Adv"),
            completeServiceUUIDs: [Build.uuid("180F"), Build.uuid("FE2C")],
            incompleteServiceUUIDs: [Build.uuid("1812")],
            serviceData: [Build.uuid("FCD2"): [1]], manufacturerData: [0x004C: [1], 0x0006: [6]], txPowerLevel: 4)
        let response = AdvertisingData(
            flags: 0x1A, completeLocalName: Build.name("Rsp"), shortenedLocalName: Build.name("R"),
            completeServiceUUIDs: [Build.uuid("FE2C"), Build.uuid("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")],
            serviceData: [Build.uuid("FCD2"): [2], Build.uuid("FE95"): [3]],
            manufacturerData: [0x004C: [2]], appearance: 0x0341)
        let merged = advertised.adding(response)
        #expect(merged.completeServiceUUIDs
            == [Build.uuid("180F"), Build.uuid("FE2C"), Build.uuid("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")])
        #expect(merged.incompleteServiceUUIDs == [Build.uuid("1812")])
        #expect(merged.serviceData == [Build.uuid("FCD2"): [1], Build.uuid("FE95"): [3]])
        #expect(merged.manufacturerDataValues == [0x004C: [[1], [2]], 0x0006: [[6]]])
        #expect(merged.flags == 0x06)
        #expect(merged.completeLocalName == Build.name("Adv"))
        #expect(merged.shortenedLocalName == Build.name("R"))
        #expect(merged.appearance == 0x0341)
        #expect(merged.txPowerLevel == 4)
        // Adding the same response again changes nothing.
        #expect(merged.adding(response) == merged)
    }

    /// The issue's case: 16-bit UUIDs in ADV_IND, a 128-bit one in SCAN_RSP,
    /// heard alternately: the device's UUIDs stay the same on every packet.
    @Test func uuidsDoNotFlipBetweenAdvertisementAndScanResponse() {
        let advert = Advertisement(
            device: device, properties: [.connectable, .scannable, .legacy],
            data: AdvertisingData(completeServiceUUIDs: [Build.uuid("180F"), Build.uuid("180A")]))
        let response = Advertisement(
            device: device, properties: [.scanResponse, .legacy],
            data: AdvertisingData(completeServiceUUIDs: [Build.uuid("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")]))
        let expected = [Build.uuid("180F"), Build.uuid("180A"), Build.uuid("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")]
        var heard = advert
        for packet in [response, advert, response, advert, advert, response] {
            heard = heard.merging(packet)
            #expect(heard.data.completeServiceUUIDs == expected)
        }
    }

    /// A sensor's changing manufacturer data does not pile up across packets.
    @Test func newerValuesOfACompanyReplaceOlderOnes() {
        var heard = Advertisement(device: device, data: AdvertisingData(manufacturerData: [0x0499: [1]]))
        for reading in UInt8(2)...9 {
            heard = heard.merging(Advertisement(device: device, data: AdvertisingData(manufacturerData: [0x0499: [reading]])))
        }
        #expect(heard.data.manufacturerDataValues == [0x0499: [[9]]])
    }
}

/// A device sending ever new company ids or service-data UUIDs does not make
/// its merged advertisement, and so every later match of it, grow without bound.
@Suite struct MergeBoundTests {
    let device = Build.device(0xC0FF_EE00_0002)

    func advert(company: UInt16, service: UInt16) -> Advertisement {
        Advertisement(
            device: device, properties: [.legacy], rssi: -60,
            data: AdvertisingData(
                serviceData: [BluetoothUUID(uuid16: service): [1]], manufacturerData: [company: [UInt8(company & 0xFF)]]))
    }

    @Test func mergedKeysStayWithinTheLimit() {
        var merged = advert(company: 0, service: 0)
        for n in 1..<500 {
            merged.merge(advert(company: UInt16(n), service: UInt16(n)))
            #expect(merged.data.manufacturerDataValues.count <= AdvertisingData.mergedKeyLimit)
            #expect(merged.data.serviceData.count <= AdvertisingData.mergedKeyLimit)
            // The newest packet is always there.
            #expect(merged.data.manufacturerDataValues[UInt16(n)] == [[UInt8(n & 0xFF)]])
            #expect(merged.data.serviceData[BluetoothUUID(uuid16: UInt16(n))] == [1])
        }
    }

    @Test func aDeviceAlternatingTwoPayloadsStillShowsBoth() {
        var merged = advert(company: 1, service: 1)
        for n in 0..<100 { merged.merge(advert(company: UInt16(1 + n % 2), service: UInt16(1 + n % 2))) }
        #expect(merged.data.manufacturerDataValues.keys.sorted() == [1, 2])
        #expect(merged.data.serviceData.count == 2)
    }

    @Test func mergingInPlaceIsMerging() {
        var inPlace = advert(company: 1, service: 1)
        var copied = inPlace
        for n in 0..<20 {
            let next = advert(company: UInt16(n % 11), service: UInt16(n % 3))
            inPlace.merge(next)
            copied = copied.merging(next)
            #expect(inPlace == copied)
        }
    }
}
