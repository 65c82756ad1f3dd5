import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Foundation
import Logging
import Testing
import TestSupport
@testable import AccessoryDaemon

/// `OpenBluetoothChannel` on the bus: who may ask, and what a failure looks
/// like. The connection itself needs radios: the lab's bt-handoff scenario.
@Suite(.serialized) struct BluetoothChannelServiceTests {
    static let app = PickerFeatureTests.app
    static let other = PickerFeatureTests.other
    static let sensor = BluetoothDeviceIdentifier(address: HardwareAddress("C0:FF:EE:00:00:60")!, addressType: .public)
    static let grants = [
        Grant(accessory: AccessoryID(0xD1), app: "acme", displayName: "Sensor", state: .authorized, bluetooth: sensor),
        Grant(accessory: AccessoryID(0xD2), app: "acme", displayName: "Camera", state: .authorized, ssid: SSID("ACME-Cam")),
        Grant(accessory: AccessoryID(0xD3), app: "acme", displayName: "Pending", state: .awaitingAuthorization,
              bluetooth: BluetoothDeviceIdentifier(address: HardwareAddress("C0:FF:EE:00:00:61")!, addressType: .random)),
    ]

    /// An activated session asking for a channel (PSM 0) to each accessory of `ids`;
    /// the client prints each refusal's name and message.
    static func open(_ ids: String...) -> [[String]] {
        [["session"], ["explain"]] + ids.map { ["call", "session", BusNames.session, "OpenBluetoothChannel", BusNames.accessories + "/" + $0, "0"] }
    }

    @Test func onlyTheAppHoldingAnAuthorizedBluetoothGrantMayAsk() throws {
        let h = try ServiceHarness(manifests: [Self.app, Self.other], grants: Self.grants)
        let output = try h.runClient(Self.open("00000000000000d1", "00000000000000d2", "00000000000000d3"), as: "nobody")
        #expect(output == """
            error org.accessoryagent.Error.connectionFailed Bluetooth is off in this accessoryd
            error org.accessoryagent.Error.invalidRequest accessory Camera is not a Bluetooth accessory; a channel needs one
            error org.accessoryagent.Error.invalidRequest Pending is awaitingAuthorization, not authorized

            """)
        let other = try h.runClient(Self.open("00000000000000d1"), as: "daemon")
        #expect(other == "error org.accessoryagent.Error.invalidRequest unknown accessory 00000000000000d1\n")
    }

    @Test func aFailedConnectionIsConnectionFailedWithTheReason() throws {
        let h = try ServiceHarness(manifests: [Self.app], grants: Self.grants)
        h.service.channels = ChannelBroker(loop: h.loop, controllers: { [] }, logger: Logger(label: "test"))
        let output = try h.runClient(Self.open("00000000000000d1"), as: "nobody")
        #expect(output.hasPrefix("error org.accessoryagent.Error.connectionFailed "))
        #expect(output.contains("controller"))
    }
}
