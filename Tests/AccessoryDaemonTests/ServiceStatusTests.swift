import AccessoryCore
import AccessoryDecisions
import AccessoryRadios
import Testing
@testable import AccessoryDaemon

/// STATUS=, as text from the state: what is there now and what it does, as the configuration allows.
@Suite struct ServiceStatusTests {
    static func controller(_ index: UInt16, up: Bool = true, le: Bool = true) -> BluetoothControllerInfo {
        BluetoothControllerInfo(index: index, name: "hci\(index)", address: BluetoothAddress("00:AA:01:00:00:0\(index)")!,
                                isUp: up, supportsLowEnergy: le)
    }

    @Test func listsTheControllersInUseWithWhatTheyDo() {
        let status = ServiceStatus(
            controllers: [Self.controller(0), Self.controller(1), Self.controller(2, up: false)],
            activities: [0: .scanning, 1: .listening], settings: BluetoothSettings(), wifi: ["wlan0"])
        #expect(status.text == "Bluetooth: hci0 scanning, hci1 listening, hci2 down; Wi-Fi: wlan0")
    }

    @Test func followsControllersEqualsAndShowsAControllerDown() {
        var settings = BluetoothSettings()
        settings.controllers = [0]
        let status = ServiceStatus(controllers: [Self.controller(0, up: false), Self.controller(1)],
                                   activities: [:], settings: settings, wifi: [])
        #expect(status.text == "Bluetooth: hci0 down; Wi-Fi: none")
    }

    @Test func aHotplugChangesTheText() {
        let before = ServiceStatus(controllers: [], activities: [:], settings: BluetoothSettings(),
                                   wifi: ["wlan0", "wlan1", "wlan2"])
        let after = ServiceStatus(controllers: [Self.controller(0)], activities: [0: .recovering],
                                  settings: BluetoothSettings(), wifi: ["wlan0"])
        #expect(before.text == "Bluetooth: none; Wi-Fi: wlan0, wlan1, wlan2")
        #expect(after.text == "Bluetooth: hci0 recovering; Wi-Fi: wlan0")
        #expect(before != after)
    }

    @Test func noRadiosDisabledKindsAndACapture() {
        #expect(ServiceStatus(controllers: [], activities: [:], settings: BluetoothSettings(), wifi: []).text
            == "No radios found; waiting")
        #expect(ServiceStatus(controllers: nil, activities: [:], settings: BluetoothSettings(), wifi: ["wlan0"]).text
            == "Bluetooth: off; Wi-Fi: wlan0")
        #expect(ServiceStatus(controllers: [Self.controller(0, le: false)], activities: [:],
                              settings: BluetoothSettings(), wifi: nil).text
            == "Bluetooth: hci0 without LE, not used; Wi-Fi: off")
        #expect(ServiceStatus(bluetooth: nil, wifi: nil, capture: "/tmp/x.snoop").text
            == "Bluetooth from the capture /tmp/x.snoop")
    }
}
