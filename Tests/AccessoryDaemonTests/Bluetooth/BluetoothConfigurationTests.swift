import AccessoryCore
import AccessoryDecisions
import Testing
@testable import AccessoryDaemon

@Suite struct BluetoothConfigurationTests {
    func apply(_ text: String) throws(KeyFileError) -> DaemonConfiguration {
        var configuration = DaemonConfiguration()
        try configuration.apply(KeyFile(parsing: Array(text.utf8), source: "test.conf"))
        return configuration
    }

    @Test func defaultsScanEveryControllerPassivelyWithAWatchdog() throws {
        let settings = try apply("").bluetooth
        #expect(settings.controllers == nil && settings.exclusiveControllers.isEmpty)
        #expect(settings.scanWatchdog == .seconds(90))
        #expect(settings.scanMode == .auto)
        #expect(settings.powerControllers == .auto)
        #expect(settings.uses(controller: 7))
    }

    @Test func appliesEveryBluetoothKey() throws {
        let settings = try apply("""
            [Bluetooth]
            Controllers=hci0, hci2
            ExclusiveControllers=hci3
            ScanWatchdog=2min
            ScanMode=Active
            PowerControllers=Never
            """).bluetooth
        #expect(settings.controllers == [0, 2])
        #expect(settings.exclusiveControllers == [3])
        #expect(settings.scanWatchdog == .seconds(120))
        #expect(settings.scanMode == .active)
        #expect(settings.powerControllers == .never)
        #expect(settings.uses(controller: 2) && settings.uses(controller: 3) && !settings.uses(controller: 1))
    }

    @Test(arguments: [("90", Duration.seconds(90)), ("45s", .seconds(45)), ("0", nil), ("off", nil)])
    func watchdogDurations(text: String, expected: Duration?) throws {
        #expect(try apply("[Bluetooth]\nScanWatchdog=\(text)\n").bluetooth.scanWatchdog == expected)
    }

    @Test func emptyControllerListMeansAll() throws {
        #expect(try apply("[Bluetooth]\nControllers=hci1\nControllers=\n").bluetooth.controllers == nil)
    }

    @Test(arguments: [
        ("Controllers", "wlan0", "controller names such as hci0 hci1, or empty for all"),
        ("Controllers", "hci65535", "controller names such as hci0 hci1, or empty for all"),
        ("ExclusiveControllers", "hci-1", "controller names such as hci1, or empty for none"),
        ("ScanWatchdog", "soon", "a duration such as 90s or 2min, or 0 to turn it off"),
        ("ScanWatchdog", "-5", "a duration such as 90s or 2min, or 0 to turn it off"),
        ("ScanMode", "aggressive", "auto, passive or active"),
        ("PowerControllers", "always", "auto or never"),
    ])
    func badValuesNameTheKey(key: String, value: String, expected: String) {
        #expect(throws: KeyFileError(source: "test.conf", line: 2, reason: .invalidValue(
            section: "Bluetooth", key: key, value: value, expected: expected))) {
            try apply("[Bluetooth]\n\(key)=\(value)\n")
        }
    }

    @Test func autoScansActivelyOnlyWhenAnAppDeclaresNames() {
        let app = AppID("com.example.lamp")
        var manifest = AppManifest(app: app, supports: .bluetooth, source: "lamp.conf")
        var catalog = AppManifestCatalog(manifests: [app: manifest])
        #expect(BluetoothSettings.scanType(for: .auto, apps: catalog) == .passive)
        manifest.bluetoothNames = ["Lamp"]
        catalog.manifests[app] = manifest
        #expect(BluetoothSettings.scanType(for: .auto, apps: catalog) == .active)
        #expect(BluetoothSettings.scanType(for: .passive, apps: catalog) == .passive)
        #expect(BluetoothSettings.scanType(for: .active, apps: AppManifestCatalog()) == .active)
    }
}
