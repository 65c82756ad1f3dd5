import AccessoryPlatform
import AccessoryRadios

/// The radios the kernel offers the agent right now.
public struct RadioInventory: Equatable, Sendable {
    public var bluetoothControllers: [BluetoothControllerInfo]
    public var wifiInterfaces: [WiFiInterfaceInfo]

    public init(bluetoothControllers: [BluetoothControllerInfo], wifiInterfaces: [WiFiInterfaceInfo]) {
        self.bluetoothControllers = bluetoothControllers
        self.wifiInterfaces = wifiInterfaces
    }

    /// Asks the kernel, for the radio kinds the configuration enables.
    public static func probe(_ configuration: DaemonConfiguration) throws(SystemError) -> RadioInventory {
        RadioInventory(
            bluetoothControllers: configuration.bluetoothEnabled ? try BluetoothControllerInfo.all() : [],
            wifiInterfaces: configuration.wifiEnabled ? try WiFiInterfaceInfo.all() : [])
    }

    public var isEmpty: Bool { bluetoothControllers.isEmpty && wifiInterfaces.isEmpty }

    /// One line per radio, for `accessoryd --probe` (stable: scripts parse it).
    public var report: [String] {
        bluetoothControllers.map {
            "bluetooth \($0.name) address=\($0.address) up=\($0.isUp ? "yes" : "no") le=\($0.supportsLowEnergy ? "yes" : "no")"
        }
            + wifiInterfaces.map {
                "wifi \($0.name) ifindex=\($0.index) phy=\($0.phy) address=\($0.address?.description.lowercased() ?? "none")"
            }
    }
}
