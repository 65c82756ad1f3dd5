import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Foundation
import Logging
import Testing
import TestSupport
@testable import AccessoryDaemon

/// Setup pairing as the app sees it on a real dbus-daemon: the app under
/// its own unix user, the administrator approving with accessoryctl, the
/// management back end fed the kernel's events as bytes (no radio).
@Suite(.serialized) struct SetupPairingServiceTests {
    static let app = AppManifest(app: "lock-app", user: "nobody", supports: [.bluetooth],
                                 bluetoothServiceUUIDs: [BluetoothUUID(uuid16: 0x180F)], bluetoothNames: ["Porch"],
                                 bluetoothPairing: true)
    static let wire: [UInt8] = HardwareAddress("C0:FF:EE:00:00:01")!.littleEndianOctets + [1]

    final class Sent { var packets: [[UInt8]] = [] }

    func harness() throws -> (ServiceHarness, ManagementPairing, Sent) {
        let h = try ServiceHarness(manifests: [Self.app])
        let sent = Sent()
        let backEnd = ManagementPairing(store: BondStore(directory: h.directory), scheduler: h.scheduler,
                                        logger: Logger(label: "accessoryd") { _ in SwiftLogNoOpLogHandler() },
                                        controllers: { [0] }) { packet in sent.packets.append(packet) }
        backEnd.bluetoothdPresent = false
        h.service.center.pairingBackEnd = backEnd
        sent.packets = []
        return (h, backEnd, sent)
    }

    /// The app's picker for a lock that asks for pairing; the lock heard; the administrator approves.
    func approve(_ h: ServiceHarness) throws -> (client: (Process, Pipe, Pipe), approved: String) {
        let client = try h.startClient([
            ["call", BusNames.root, BusNames.manager, "OpenSession"], ["call", "session", BusNames.session, "Activate"],
            ["show", "Porch lock", "ServiceUUID=180F", "NameSubstring=Porch", "SupportedOptions=bluetoothPairingLE"],
            ["until", "PickerDidDismiss"],
        ], as: "nobody")
        h.pump { !h.service.center.requests.isEmpty }
        h.hear("C0:FF:EE:00:00:01", name: "Porch lock", service: 0x180F)
        let number = try #require(h.service.center.requests.values.first?.number)
        let approved = try h.accessoryctl(["approve", "\(number)", "1"])
        #expect(approved.status == 0, "\(approved.err)")
        h.scheduler.runDue()
        return (client, approved.out)
    }

    func kernel(_ h: ServiceHarness, _ backEnd: ManagementPairing, _ code: UInt16, _ parameters: [UInt8]) {
        backEnd.handle(packet: [UInt8(code & 0xFF), UInt8(code >> 8), 0, 0, UInt8(parameters.count), 0] + parameters)
        h.scheduler.runDue()
    }

    /// The signals' names the app heard, in order.
    func signals(_ output: String) -> [String] {
        output.split(separator: "\n").filter { $0.hasPrefix("signal ") }.map { String($0.split(separator: " ")[1]) }
    }

    @Test func theAppHearsPairingThenTheAccessoryInTheDocumentedOrder() throws {
        let (h, backEnd, sent) = try harness()
        let (client, approved) = try approve(h)
        #expect(h.store.grants.isEmpty)
        #expect(sent.packets.last == [0x19, 0, 0, 0, 8, 0] + Self.wire + [0x03], "Pair Device, after the controller's settings")
        kernel(h, backEnd, 0x000F, Self.wire + [1, 0, 0, 0, 0])
        kernel(h, backEnd, 0x000A, [1] + Self.wire + [0x02, 0x00, 16, 0, 0] + [UInt8](repeating: 0, count: 8) + Array(0...15))
        kernel(h, backEnd, 0x0001, [0x19, 0x00, 0x00] + Self.wire)
        let output = h.finish(client)
        let grant = try #require(h.store.grants.values.first)
        let path = BusNames.path(of: grant.accessory)
        // accessoryctl named the id it would have; the app heard it first with PickerSetupPairing.
        #expect(approved.contains("\(grant.accessory)"))
        #expect(signals(output) == ["Activated", "PropertiesChanged", "PickerDidPresent", "PickerSetupPairing", "InterfacesAdded",
                                    "AccessoryAdded", "PickerDidDismiss"], "\(output)")
        #expect(output.contains("signal PickerSetupPairing \(path)\n"))
        #expect(output.contains("signal PickerDidDismiss  \n"))
        #expect(backEnd.bonds[grant.accessory] != nil)
    }

    @Test func aRejectedPairingEndsTheSetupWithItsReasonAndGrantsNothing() throws {
        let (h, backEnd, _) = try harness()
        let (client, _) = try approve(h)
        kernel(h, backEnd, 0x0001, [0x19, 0x00, 0x0B] + Self.wire)
        let output = h.finish(client)
        #expect(signals(output) == ["Activated", "PropertiesChanged", "PickerDidPresent", "PickerSetupPairing", "PickerSetupFailed",
                                    "PickerDidDismiss"], "\(output)")
        #expect(output.contains("signal PickerSetupFailed org.accessoryagent.Error.connectionFailed pairing Porch lock failed (rejectedByAccessory)"),
                "\(output)")
        #expect(h.store.grants.isEmpty && backEnd.bonds.isEmpty)
    }
}
