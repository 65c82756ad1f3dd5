import AccessoryCodecs
import AccessoryCore
import Testing

/// Extended scanning between btvirt's dual-mode (Bluetooth 5) emulated
/// controllers, recorded by `btmon -w` (Fixtures/bluetooth/capture-lab-extended.sh).
/// The emulator has quirks the tests keep visible: it reports SID 0 whatever
/// the set's SID, a secondary PHY for legacy PDUs, and the scan response of an
/// extended scannable set without the scan-response bit.
@Suite("Lab capture: extended scanning")
struct LabExtendedScanTests {
    private func scannerEvents() throws -> [HCIEvent] {
        try BluetoothFixtures.records(BluetoothFixtures.extendedScan)
            .filter { $0.opcode == .eventPacket && $0.controllerIndex == BluetoothFixtures.scannerIndex }
            .map { try HCIEvent.decode($0.packet) }
    }

    private func lastReturn(of opcode: HCIOpcode) throws -> HCIReturnParameters? {
        try scannerEvents().compactMap { event -> HCIReturnParameters? in
            guard case .commandComplete(let complete) = event, complete.opcode == opcode else { return nil }
            return complete.returnParameters
        }.last
    }

    @Test func aBluetooth5ControllerOffersExtendedScanning() throws {
        guard case .localSupportedCommands(let commands) = try lastReturn(of: .readLocalSupportedCommands) else {
            Issue.record("no supported commands in the capture")
            return
        }
        #expect(commands.supportsExtendedScanning)
        #expect(commands.supports(.leSetScanParameters))

        // btmon: 0x40 0x39 0x00 0xf0 0x01 ...: LL Privacy, 2M, Coded, Extended and Periodic Advertising, ISO bits.
        guard case .leLocalSupportedFeatures(let features) = try lastReturn(of: .leReadLocalSupportedFeatures) else {
            Issue.record("no LE features in the capture")
            return
        }
        #expect(features.isSuperset(of: [.llPrivacy, .le2MPHY, .leCodedPHY, .extendedAdvertising, .periodicAdvertising]))
        #expect(!features.contains(.encryption))
        #expect(features.rawValue == 0x0000_0001_F000_3940)
    }

    @Test func extendedScanCommandsMatchTheEncoder() throws {
        let sent = try BluetoothFixtures.records(BluetoothFixtures.extendedScan)
            .filter { $0.opcode == .commandPacket && $0.controllerIndex == BluetoothFixtures.scannerIndex }
            .map(\.packet)
            .filter { $0.starts(with: [0x41, 0x20]) || $0.starts(with: [0x42, 0x20]) }
        let expected: [HCICommand] = [
            .leSetExtendedScanParameters(
                LEExtendedScanParameters(le1M: LEScanPHYParameters(scanType: .active, interval: 0x0010, window: 0x0010))),
            .leSetExtendedScanEnable(enabled: true, filterDuplicates: .disabled),
            .leSetExtendedScanEnable(enabled: false, filterDuplicates: .disabled),
        ]
        #expect(sent == expected.map { $0.encoded() })
        // And the controller accepted both.
        #expect(try scannerEvents().contains(.commandComplete(
            HCICommandComplete(allowedCommandPackets: 1, opcode: .leSetExtendedScanParameters, status: .success, returnParameters: .noParameters))))
    }

    @Test func extendedReportsBecomeAdvertisements() throws {
        var decoder = AdvertisingReportDecoder()
        var advertisements: [Advertisement] = []
        for record in try BluetoothFixtures.records(BluetoothFixtures.extendedScan) where record.opcode == .eventPacket {
            advertisements += decoder.advertisements(fromEventPacket: record.packet, controllerIndex: record.controllerIndex)
        }
        #expect(decoder.drops.total == 0)
        try #require(advertisements.count == 4)
        #expect(advertisements.allSatisfy { $0.device == BluetoothFixtures.advertiser })
        #expect(advertisements.allSatisfy { $0.rssi == nil && $0.txPower == nil })  // 127: not available
        #expect(advertisements.allSatisfy { $0.primaryPHY == .le1M && $0.secondaryPHY == .le1M })

        // Set 0: extended, scannable, no AD of its own...
        #expect(advertisements[0].properties == [.scannable])
        #expect(advertisements[0].rawAdvertisingData.isEmpty)
        // ...and its scan response, which the emulator reports without the scan-response bit.
        #expect(advertisements[1].properties == [])
        #expect(advertisements[1].data.localName == "Lab Sensor")

        // Set 1: legacy ADV_IND PDUs, through the extended report: payload A of the legacy capture.
        let legacy = advertisements[2]
        #expect(legacy.properties == [.legacy, .connectable, .scannable])
        #expect(legacy.data.flags == 0x06)
        #expect(legacy.data.completeServiceUUIDs == [BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!])
        #expect(legacy.data.serviceData == [BluetoothUUID(uuid16: 0x180F): [0x64]])
        #expect(legacy.data.manufacturerData == [0xFFFF: [0x2A]])
        // Its (empty) scan response: SCAN_RSP to ADV_IND, event type 0x001B.
        #expect(advertisements[3].properties == [.legacy, .connectable, .scannable, .scanResponse])
        #expect(legacy.merging(advertisements[3]).rawScanResponse == [])
    }

    @Test func rawExtendedReportFields() throws {
        let reports = try scannerEvents().flatMap { event -> [LEExtendedAdvertisingReport] in
            guard case .leMeta(.extendedAdvertisingReports(let reports)) = event else { return [] }
            return reports
        }
        try #require(reports.count == 4)
        #expect(reports.allSatisfy { $0.dataStatus == .complete })
        #expect(reports.allSatisfy { $0.advertisingSID == 0 })  // the emulator ignores the set's SID
        #expect(reports.allSatisfy { $0.periodicAdvertisingInterval == nil && $0.directAddress == nil })
        #expect(reports.map(\.data.count) == [0, 12, 31, 0])
    }
}
