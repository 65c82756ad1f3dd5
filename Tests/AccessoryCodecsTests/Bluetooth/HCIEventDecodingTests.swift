import AccessoryCodecs
import AccessoryCore
import Testing

@Suite("HCI event decoding")
struct HCIEventDecodingTests {
    /// The events hci0 sent in the passive-scan lab capture, decoded.
    private func scannerEvents() throws -> [HCIEvent] {
        try BluetoothFixtures.records(BluetoothFixtures.passiveScan)
            .filter { $0.opcode == .eventPacket && $0.controllerIndex == BluetoothFixtures.scannerIndex }
            .map { try HCIEvent.decode($0.packet) }
    }

    private func commandCompletes(_ opcode: HCIOpcode) throws -> [HCICommandComplete] {
        try scannerEvents().compactMap {
            guard case .commandComplete(let complete) = $0, complete.opcode == opcode else { return nil }
            return complete
        }
    }

    @Test func readLocalVersionInformationFromTheLab() throws {
        let complete = try #require(try commandCompletes(.readLocalVersionInformation).first)
        #expect(complete.status == .success)
        #expect(complete.allowedCommandPackets == 1)
        // btmon: HCI version 5.0 (0x09) revision 0, LMP 5.0 subversion 0, The Linux Foundation (1521).
        #expect(
            complete.returnParameters
                == .localVersionInformation(
                    HCILocalVersionInformation(
                        hciVersion: 0x09, hciRevision: 0, lmpVersion: 0x09, manufacturer: 1521, lmpSubversion: 0)))
    }

    @Test func supportedCommandsFromTheLabOfferLegacyScanningOnly() throws {
        let complete = try #require(try commandCompletes(.readLocalSupportedCommands).first)
        guard case .localSupportedCommands(let commands) = complete.returnParameters else {
            Issue.record("expected supported commands, got \(complete.returnParameters)")
            return
        }
        // btmon listed 52 commands, among them these, and no extended scanning.
        #expect(commands.supports(.leSetScanParameters))
        #expect(commands.supports(.leSetScanEnable))
        #expect(commands.supports(.leSetEventMask))
        #expect(commands.supports(.readLocalVersionInformation))
        #expect(!commands.supportsExtendedScanning)
        #expect(commands.octets.reduce(0) { $0 + $1.nonzeroBitCount } == 52)
    }

    @Test func leFeaturesFromTheLab() throws {
        let complete = try #require(try commandCompletes(.leReadLocalSupportedFeatures).first)
        // btmon: 0x0b = LE Encryption, Connection Parameter Request, Peripheral-initiated Features Exchange.
        #expect(
            complete.returnParameters
                == .leLocalSupportedFeatures([.encryption, .connectionParametersRequest, .peripheralInitiatedFeaturesExchange]))
    }

    /// The lab sent LE Set Scan Parameters while scanning; the controller refused it.
    @Test func commandDisallowedFromTheLab() throws {
        let statuses = try commandCompletes(.leSetScanParameters).map(\.status)
        #expect(statuses == [.success, .commandDisallowed])
        #expect(try commandCompletes(.leSetScanParameters).last?.returnParameters == HCIReturnParameters.noParameters)
    }

    /// The LE-only emulated controller refuses extended scanning with a Command Status.
    @Test func unknownCommandStatusFromTheLab() throws {
        let statuses = try scannerEvents().compactMap { event -> HCICommandStatus? in
            guard case .commandStatus(let status) = event else { return nil }
            return status
        }
        #expect(
            statuses == [
                HCICommandStatus(status: .unknownCommand, allowedCommandPackets: 1, opcode: .leSetExtendedScanParameters),
                HCICommandStatus(status: .unknownCommand, allowedCommandPackets: 1, opcode: .leSetExtendedScanEnable),
            ])
    }

    @Test func h4PacketsDecodeLikeBarePackets() throws {
        let packets = try BluetoothFixtures.records(BluetoothFixtures.passiveScan)
            .filter { $0.opcode == .eventPacket }.map(\.packet)
        #expect(packets.count > 10)
        for packet in packets {
            #expect(try HCIEvent.decode(h4Packet: [0x04] + packet) == HCIEvent.decode(packet))
        }
        #expect(throws: HCIDecodingError.notAnEvent(indicator: 0x01)) {
            try HCIEvent.decode(h4Packet: HCICommand.readLocalVersionInformation.encodedH4())
        }
        #expect(throws: HCIDecodingError.emptyPacket) { try HCIEvent.decode(h4Packet: []) }
    }

    /// Layout from Core Spec Vol 4 Part E §7.7.16; the hardware code is vendor specific.
    @Test func hardwareError() throws {
        #expect(try HCIEvent.decode(bluetoothHex("10 01 2a")) == .hardwareError(code: 0x2A))
        #expect(throws: HCIDecodingError.truncatedHardwareError) { try HCIEvent.decode(bluetoothHex("10 00")) }
    }

    /// A Command Complete for opcode 0 only hands back command credits.
    @Test func noOperationCommandComplete() throws {
        let event = try HCIEvent.decode(bluetoothHex("0e 03 01 0000"))
        #expect(
            event
                == .commandComplete(
                    HCICommandComplete(allowedCommandPackets: 1, opcode: .noOperation, status: nil, returnParameters: .noParameters)))
    }

    @Test func otherEventsKeepTheirParameters() throws {
        // Disconnection Complete (0x05), layout from Core Spec Vol 4 Part E §7.7.5.
        #expect(try HCIEvent.decode(bluetoothHex("05 04 00 4000 13")) == .other(code: 0x05, parameters: bluetoothHex("00 4000 13")))
        // An LE subevent the codec does not type (Connection Update Complete, 0x03).
        #expect(
            try HCIEvent.decode(bluetoothHex("3e 0a 03 00 4000 2800 0000 f401"))
                == .leMeta(.other(subevent: 0x03, parameters: bluetoothHex("00 4000 2800 0000 f401"))))
    }

    @Test func everyStatusCodeSurvivesTheRoundTrip() {
        for code in UInt8.min...UInt8.max {
            #expect(HCIStatus(code: code).code == code)
        }
        #expect(HCIStatus(code: 0x0C) == .commandDisallowed)
        #expect(HCIStatus(code: 0x3A) == .controllerBusy)
        #expect(HCIStatus(code: 0x12) == .invalidCommandParameters)
        #expect(HCIStatus(code: 0x2B) == .other(0x2B))
        #expect(HCIStatus.commandDisallowed.description == "Command Disallowed (0x0c)")
    }
}
