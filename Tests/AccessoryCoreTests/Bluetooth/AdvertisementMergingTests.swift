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

    @Test func serviceDataAndManufacturerDataMergePerKey() {
        let a = AdvertisingData(serviceData: [Build.uuid("FCD2"): [0x40, 0x01]], manufacturerData: [1: [1], 2: [2]])
        let b = AdvertisingData(serviceData: [Build.uuid("FE2C"): [0x00]], manufacturerData: [2: [22]])
        let merged = a.merging(b)
        #expect(merged.serviceData == [Build.uuid("FCD2"): [0x40, 0x01], Build.uuid("FE2C"): [0x00]])
        #expect(merged.manufacturerData == [1: [1], 2: [22]])
    }
}
