import AccessoryCodecs
import AccessoryCore
import Foundation
import Testing

/// The kernel's device events as a raw HCI socket bound to HCI_DEV_NONE
/// received them in the lab (Fixtures/bluetooth/lab-device-events.hex,
/// recorded by capture-device-events.py), and the scan-enable commands of
/// another process as a raw socket sees them.
@Suite struct HCIDeviceEventTests {
    /// The capture's packets, each with the step that preceded it.
    static func capturedPackets() throws -> [(step: String, packet: [UInt8])] {
        let text = String(decoding: try BluetoothFixtures.bytes("lab-device-events.hex"), as: UTF8.self)
        var step = ""
        var packets: [(String, [UInt8])] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# after: ") {
                step = String(line.dropFirst("# after: ".count))
            } else {
                packets.append((step, try #require(bytes(fromHex: String(line)))))
            }
        }
        return packets
    }

    @Test func labCaptureGivesRegisteredUpDownUnregistered() throws {
        let decoded = try Self.capturedPackets().map { step, packet in
            (step, try HCIDeviceEvent.decode(HCIEvent.decode(h4Packet: packet)))
        }
        #expect(decoded.map(\.1) == [
            HCIDeviceEvent(kind: .registered, controllerIndex: 0),
            HCIDeviceEvent(kind: .up, controllerIndex: 0),
            HCIDeviceEvent(kind: .down, controllerIndex: 0),
            HCIDeviceEvent(kind: .unregistered, controllerIndex: 0),
        ])
        #expect(decoded.map(\.0) == [
            "btvirt -L -l1 (hci0 registered)", "hciconfig hci0 up", "hciconfig hci0 down",
            "btvirt terminated (hci0 removed)",
        ])
    }

    @Test func otherEventsAreNotDeviceEvents() throws {
        #expect(try HCIDeviceEvent.decode(.hardwareError(code: 1)) == nil)
        // Stack-internal type 2 (EVT_SI_SECURITY) is not a device event.
        #expect(try HCIDeviceEvent.decode(.other(code: 0xFD, parameters: [0x02, 0x00, 0x01, 0x00])) == nil)
    }

    @Test func truncatedAndUnknownDeviceEventsAreNamedErrors() {
        #expect(throws: HCIDeviceEventError.truncated(length: 1)) {
            try HCIDeviceEvent.decode(.other(code: 0xFD, parameters: [0x01]))
        }
        #expect(throws: HCIDeviceEventError.truncated(length: 4)) {
            try HCIDeviceEvent.decode(.other(code: 0xFD, parameters: [0x01, 0x00, 0x03, 0x00]))
        }
        #expect(throws: HCIDeviceEventError.unknownKind(9)) {
            try HCIDeviceEvent.decode(.other(code: 0xFD, parameters: [0x01, 0x00, 0x09, 0x00, 0x00, 0x00]))
        }
    }

    /// LE Set Scan Enable as the kernel sends it (the command records of
    /// lab-passive-scan.btsnoop carry the same bytes; see its btmon text).
    @Test func scanEnableCommandsSayWhetherTheyTurnScanningOn() throws {
        let commands = try BluetoothFixtures.records(BluetoothFixtures.passiveScan)
            .filter { $0.opcode == .commandPacket }
            .map { try HCICommandPacket.decode($0.packet) }
        let enables = commands.compactMap(\.scanEnable)
        #expect(enables.first == true)
        #expect(try HCICommandPacket.decode([0x0C, 0x20, 0x02, 0x00, 0x01]).scanEnable == false)
        #expect(try HCICommandPacket.decode([0x42, 0x20, 0x06, 0x01, 0x00, 0, 0, 0, 0]).scanEnable == true)
        #expect(try HCICommandPacket.decode([0x0B, 0x20, 0x01, 0x01]).scanEnable == nil)
        #expect(try HCICommandPacket.decode([0x0C, 0x20, 0x00]).scanEnable == nil)
    }

    @Test func malformedCommandPacketsAreNamedErrors() {
        #expect(throws: HCICommandPacketError.truncatedHeader(length: 2)) { try HCICommandPacket.decode([0x0C, 0x20]) }
        #expect(throws: HCICommandPacketError.parameterLengthMismatch(declared: 2, actual: 1)) {
            try HCICommandPacket.decode([0x0C, 0x20, 0x02, 0x01])
        }
    }
}
