import AccessoryCodecs
import AccessoryCore
import Testing

@Suite("HCI command encoding")
struct HCICommandEncodingTests {
    private let labScan = LEScanParameters(scanType: .passive, interval: 0x0010, window: 0x0010)

    /// The lab capture sent each of these through `hcitool cmd`; btmon recorded
    /// the packets the kernel passed to hci0. The encoder must produce the same bytes.
    @Test func commandsMatchWhatBtmonRecordedInTheLab() throws {
        let recorded = try BluetoothFixtures.records(BluetoothFixtures.passiveScan)
            .filter { $0.opcode == .commandPacket && $0.controllerIndex == BluetoothFixtures.scannerIndex }
            .map(\.packet)
        let expected: [HCICommand] = [
            .readLocalVersionInformation,
            .readLocalSupportedCommands,
            .leReadLocalSupportedFeatures,
            .leSetEventMask(LEEventMask.controllerDefault.union(.extendedAdvertisingReport)),
            .leSetScanParameters(labScan),
            .leSetScanEnable(enabled: true, filterDuplicates: false),
            .leSetScanParameters(labScan),
            .leSetScanEnable(enabled: false, filterDuplicates: false),
            .leSetExtendedScanParameters(
                LEExtendedScanParameters(le1M: LEScanPHYParameters(scanType: .passive, interval: 0x0010, window: 0x0010))),
            .leSetExtendedScanEnable(enabled: true, filterDuplicates: .disabled),
        ]
        #expect(recorded == expected.map { $0.encoded() })
    }

    @Test func activeScanParametersMatchTheLabCapture() throws {
        let firstCommand = try #require(
            try BluetoothFixtures.records(BluetoothFixtures.activeScanResponse).first { $0.opcode == .commandPacket })
        let command = HCICommand.leSetScanParameters(
            LEScanParameters(scanType: .active, interval: 0x0010, window: 0x0010))
        #expect(firstCommand.packet == command.encoded())
        #expect(command.encoded() == bluetoothHex("0b20 07 01 1000 1000 00 00"))
    }

    @Test func h4VariantStartsWithTheCommandIndicator() {
        let command = HCICommand.leSetScanEnable(enabled: true, filterDuplicates: true)
        #expect(command.encodedH4() == [0x01] + command.encoded())
        #expect(command.encodedH4() == bluetoothHex("01 0c20 02 01 01"))
    }

    /// Core Spec Vol 4 Part E §7.8.64: Scanning_PHYs 0b101 is followed by the
    /// 1M entry, then the Coded entry. (Layout from the specification; the
    /// emulated lab controller has no extended scanning to capture this from.)
    @Test func extendedScanParametersListPHYsInBitOrder() {
        let command = HCICommand.leSetExtendedScanParameters(
            LEExtendedScanParameters(
                ownAddressType: .random,
                filterPolicy: .acceptAll,
                le1M: LEScanPHYParameters(scanType: .active, interval: 0x0060, window: 0x0030),
                leCoded: LEScanPHYParameters(scanType: .passive, interval: 0x0190, window: 0x0190)))
        #expect(command.encoded() == bluetoothHex("4120 0d 01 00 05  01 6000 3000  00 9001 9001"))
    }

    @Test func extendedScanEnableCarriesDurationAndPeriod() {
        let command = HCICommand.leSetExtendedScanEnable(
            enabled: true, filterDuplicates: .enabledResetEachPeriod, duration: 0x01F4, period: 0x0002)
        #expect(command.encoded() == bluetoothHex("4220 06 01 02 f401 0200"))
    }

    @Test func opcodeSplitsIntoGroupAndCommand() {
        #expect(HCIOpcode.leSetScanParameters.ogf == 0x08)
        #expect(HCIOpcode.leSetScanParameters.ocf == 0x000B)
        #expect(HCIOpcode(ogf: 0x04, ocf: 0x0001) == .readLocalVersionInformation)
        #expect(HCIOpcode.leSetExtendedScanEnable.description == "0x2042")
    }

    @Test func eventMaskBitsFollowSubeventCodes() {
        #expect(LEEventMask.controllerDefault.rawValue == 0x1F)
        #expect(LEEventMask.extendedAdvertisingReport.rawValue == 1 << 12)
        #expect(LEEventMask(subevent: 0).isEmpty)
        #expect(LEEventMask(subevent: 65).isEmpty)
        #expect(LEEventMask(subevent: 64).rawValue == 1 << 63)
    }
}
