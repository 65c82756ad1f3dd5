import Testing
@testable import AccessoryRadios

/// The management packets accessoryd sends and reads, as bytes from BlueZ's doc/mgmt-api.txt
/// and as btmon showed them in the lab.
@Suite struct ManagementPacketTests {
    @Test func setPoweredIsOpcode5WithOneOctet() {
        #expect(ManagementPacket.setPowered(controller: 0, on: true) == [0x05, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])
        #expect(ManagementPacket.setPowered(controller: 0x0102, on: false) == [0x05, 0x00, 0x02, 0x01, 0x01, 0x00, 0x00])
    }

    @Test(arguments: [
        // Command Complete for Set Powered on hci0: success, Current Settings 0x00000ad1 (powered, LE...).
        ([0x01, 0x00, 0x00, 0x00, 0x07, 0x00, 0x05, 0x00, 0x00, 0xd1, 0x0a, 0x00, 0x00] as [UInt8],
         ManagementPacket.Event.commandAnswered(opcode: 5, controller: 0, status: 0, settings: 0x0ad1)),
        // Command Status for Set Powered on hci1: RFKilled.
        ([0x02, 0x00, 0x01, 0x00, 0x03, 0x00, 0x05, 0x00, 0x12],
         .commandAnswered(opcode: 5, controller: 1, status: 0x12, settings: nil)),
        // Command Complete for Read Version (no controller): its parameters are not settings.
        ([0x01, 0x00, 0xff, 0xff, 0x06, 0x00, 0x01, 0x00, 0x00, 0x01, 0x16, 0x00],
         .commandAnswered(opcode: 1, controller: 0xFFFF, status: 0, settings: nil)),
        ([0x06, 0x00, 0x00, 0x00, 0x04, 0x00, 0xd0, 0x0a, 0x00, 0x00], .newSettings(controller: 0, settings: 0x0ad0)),
        ([0x04, 0x00, 0x02, 0x00, 0x00, 0x00], .indexAdded(2)),
        ([0x05, 0x00, 0x02, 0x00, 0x00, 0x00], .indexRemoved(2)),
        ([0x06, 0x00, 0x00, 0x00, 0x02, 0x00, 0xd0, 0x0a], .other(code: 6)),
        ([0x25, 0x00, 0x00, 0x00, 0x00, 0x00], .other(code: 0x25)),
    ])
    func decodes(bytes: [UInt8], expected: ManagementPacket.Event) {
        #expect(ManagementPacket.decode(bytes) == expected)
    }

    @Test func lengthsThatDisagreeAreRefused() {
        #expect(ManagementPacket.decode([0x04, 0x00, 0x02]) == nil)
        #expect(ManagementPacket.decode([0x04, 0x00, 0x02, 0x00, 0x01, 0x00]) == nil)
        #expect(ManagementPacket.decode([0x04, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00]) == nil)
    }
}
