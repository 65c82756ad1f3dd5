import Testing
@testable import AccessoryCore

private let vendorDir = AppManifestLoader.vendorDirectory
private let adminDir = AppManifestLoader.administratorDirectory

private func file(_ directory: String, _ name: String, _ text: String) -> ManifestFile {
    ManifestFile(path: "\(directory)/\(name)", bytes: Array(text.utf8))
}

private let acme = """
    # Installed by the acme-sensor-logger package.
    [App]
    Name=acme-sensor-logger
    DisplayName=Acme Sensor Logger
    User=acmelog
    Unit=acme-logger.service
    Supports=Bluetooth Wi-Fi

    [Bluetooth]
    ServiceUUIDs=180F 6e400001-b5a3-f393-e0a9-e50e24dcca9e
    ServiceUUIDs=FCD2
    CompanyIdentifiers=0x004C 89
    Names=Acme Sensor
    Names=ACME-*
    Pairing=yes

    [Wi-Fi]
    SSIDs=Acme Setup
    SSIDs=Bad\\xff\\\\name
    SSIDPrefixes=ACME-
    """

@Suite struct AppManifestParsingTests {
    @Test func readsEveryKey() throws {
        let catalog = AppManifestLoader.load(vendor: [file(vendorDir, "acme-sensor-logger.conf", acme)], administrator: [])
        #expect(catalog.errors.isEmpty)
        let manifest = try #require(catalog["acme-sensor-logger"])
        #expect(manifest.displayName == "Acme Sensor Logger")
        #expect(manifest.user == "acmelog")
        #expect(manifest.unit == "acme-logger.service")
        #expect(manifest.supports == [.bluetooth, .wifi])
        #expect(manifest.bluetoothServiceUUIDs == Set(["180F", "FCD2", "6E400001-B5A3-F393-E0A9-E50E24DCCA9E"].map { BluetoothUUID($0)! }))
        #expect(manifest.bluetoothCompanyIdentifiers == [0x004C, 0x0059])
        #expect(manifest.bluetoothNames == ["Acme Sensor", "ACME-*"])
        #expect(manifest.bluetoothPairing)
        #expect(manifest.ssids == [SSID("Acme Setup")!, SSID(bytes: [0x42, 0x61, 0x64, 0xFF, 0x5C, 0x6E, 0x61, 0x6D, 0x65])!])
        #expect(manifest.ssidPrefixes == [Array("ACME-".utf8)])
        #expect(manifest.source == "\(vendorDir)/acme-sensor-logger.conf")
    }

    static let malformed: [(String, Int?, KeyFileError.Reason)] = [
        ("[App]\nName=m\nUser=u\nSupports=Bluetooth\n[Bluetoth]\nNames=x", 5, .unknownSection("Bluetoth")),
        ("[App]\nName=m\nUser=u\nSupports=Bluetooth\nColour=red", 5, .unknownKey(section: "App", key: "Colour")),
        ("[App]\nName=m\nUser=u\nSupports=Bluetooth\n[Bluetooth]\nSSIDs=x", 6, .unknownKey(section: "Bluetooth", key: "SSIDs")),
        ("[App]\nName=other\nUser=u\nSupports=Bluetooth", 2,
         .invalidValue(section: "App", key: "Name", value: "other", expected: "the file's own name, 'm'")),
        ("[App]\nName=m\nName=m\nUser=u\nSupports=Bluetooth", 3, .duplicateKey(section: "App", key: "Name")),
        ("[App]\nUser=u\nSupports=Bluetooth", nil, .missingKey(section: "App", key: "Name")),
        ("[App]\nName=m\nUser=u", nil, .missingKey(section: "App", key: "Supports")),
        ("[App]\nName=m\nSupports=Bluetooth", nil, .missingKey(section: "App", key: "User or Unit")),
        ("[App]\nName=m\nUser=Root!\nSupports=Bluetooth", 3,
         .invalidValue(section: "App", key: "User", value: "Root!", expected: "a unix user name")),
        ("[App]\nName=m\nUnit=m.timer\nSupports=Bluetooth", 3,
         .invalidValue(section: "App", key: "Unit", value: "m.timer", expected: "a systemd unit name ending in .service or .scope")),
        ("[App]\nName=m\nUser=u\nSupports=Bluetooth Zigbee", 4,
         .invalidValue(section: "App", key: "Supports", value: "Bluetooth Zigbee", expected: "Bluetooth and/or Wi-Fi")),
        ("[App]\nName=m\nUser=u\nSupports=Bluetooth\n[Bluetooth]\nServiceUUIDs=180F 18G", 6,
         .invalidValue(section: "Bluetooth", key: "ServiceUUIDs", value: "180F 18G", expected: "16-, 32- or 128-bit UUIDs")),
        ("[App]\nName=m\nUser=u\nSupports=Bluetooth\n[Bluetooth]\nCompanyIdentifiers=0x10000", 6,
         .invalidValue(section: "Bluetooth", key: "CompanyIdentifiers", value: "0x10000", expected: "company identifiers 0x0000-0xFFFF")),
        ("[App]\nName=m\nUser=u\nSupports=Bluetooth\n[Bluetooth]\nNames=", 6,
         .invalidValue(section: "Bluetooth", key: "Names", value: "", expected: "a name")),
        ("[App]\nName=m\nUser=u\nSupports=Wi-Fi\n[Wi-Fi]\nSSIDPrefixes=\(String(repeating: "A", count: 33))", 6,
         .invalidValue(section: "Wi-Fi", key: "SSIDPrefixes", value: String(repeating: "A", count: 33),
                       expected: "an SSID prefix of 1 to 32 octets (\\xNN for any octet)")),
        ("[App]\nName=m\nUser=u\nSupports=Wi-Fi\n[Wi-Fi]\nSSIDs=bad\\q", 6,
         .invalidValue(section: "Wi-Fi", key: "SSIDs", value: "bad\\q", expected: "an SSID of 1 to 32 octets (\\xNN for any octet)")),
        ("[App]\nName=m\nUser=u\nSupports=Wi-Fi\n[Bluetooth]\nNames=x", 4,
         .invalidValue(section: "App", key: "Supports", value: "Wi-Fi", expected: "Bluetooth as well, since the file has a [Bluetooth] section")),
        ("[App]\nName=m\nUser=u\nSupports=Bluetooth\nbroken line", 5, .missingEquals("broken line")),
        ("[App]\nName=m\nUser=u\nWakeSocket=m.service\nSupports=Bluetooth", 4,
         .invalidValue(section: "App", key: "WakeSocket", value: "m.service", expected: "a systemd unit name ending in .socket, not a template (no @)")),
        ("[App]\nName=m\nUser=u\nWakeSocket=m@.socket\nSupports=Bluetooth", 4,
         .invalidValue(section: "App", key: "WakeSocket", value: "m@.socket", expected: "a systemd unit name ending in .socket, not a template (no @)")),
        ("[App]\nName=m\nUser=u\nWakeSocket=m.socket\nWakeSocket=m.socket\nSupports=Bluetooth", 5,
         .duplicateKey(section: "App", key: "WakeSocket")),
        ("[App]\nName=m\nUser=u\nSupports=Bluetooth\n[Bluetooth]\nPairing=LE", 6,
         .invalidValue(section: "Bluetooth", key: "Pairing", value: "LE", expected: "a boolean (yes/no, true/false, on/off, 1/0)")),
        ("[App]\nName=m\nUser=u\nSupports=Bluetooth\n[Bluetooth]\nPairing=no\nPairing=yes", 7,
         .duplicateKey(section: "Bluetooth", key: "Pairing")),
        ("[App]\nName=m\nUser=u\nSupports=Bluetooth\nPairing=yes", 5, .unknownKey(section: "App", key: "Pairing")),
    ]

    @Test func readsTheWakeSocket() throws {
        let text = "[App]\nName=m\nUser=u\nWakeSocket=m-wake.socket\nSupports=Bluetooth"
        let catalog = AppManifestLoader.load(vendor: [file(vendorDir, "m.conf", text)], administrator: [])
        #expect(catalog.errors.isEmpty)
        #expect(try #require(catalog["m"]).wakeSocket == "m-wake.socket")
        #expect(try #require(AppManifestLoader.load(vendor: [file(vendorDir, "acme-sensor-logger.conf", acme)], administrator: [])["acme-sensor-logger"]).wakeSocket == nil)
    }

    /// Pairing is declared, never assumed: without the key, or with no, the app may not ask for it.
    @Test func pairingIsOffUnlessDeclared() throws {
        for (bluetooth, expected) in [("", false), ("[Bluetooth]\nPairing=no\n", false), ("[Bluetooth]\nPairing=true\n", true)] {
            let text = "[App]\nName=m\nUser=u\nSupports=Bluetooth\n" + bluetooth
            let catalog = AppManifestLoader.load(vendor: [file(vendorDir, "m.conf", text)], administrator: [])
            #expect(catalog.errors.isEmpty)
            #expect(try #require(catalog["m"]).bluetoothPairing == expected)
        }
    }

    @Test(arguments: malformed)
    func malformedManifestIsRefusedWithFileLineAndReason(text: String, line: Int?, reason: KeyFileError.Reason) {
        let good = file(vendorDir, "good.conf", "[App]\nName=good\nUnit=good.service\nSupports=Wi-Fi\n[Wi-Fi]\nSSIDPrefixes=G")
        let catalog = AppManifestLoader.load(vendor: [file(vendorDir, "m.conf", text), good], administrator: [])
        #expect(catalog.errors == [KeyFileError(source: "\(vendorDir)/m.conf", line: line, reason: reason)])
        #expect(catalog["m"] == nil)
        #expect(catalog["good"] != nil, "one bad file does not affect the other apps")
    }

    @Test func errorReadsAsFileLineReason() {
        let catalog = AppManifestLoader.load(vendor: [file(vendorDir, "m.conf", "[App]\nName=m\nUser=u\nSupports=Bluetooth\nColour=red")], administrator: [])
        #expect(catalog.errors.map(\.description) == ["\(vendorDir)/m.conf:5: unknown key 'Colour' in [App]"])
    }
}

@Suite struct AppManifestLoaderTests {
    @Test func administratorsFileOfTheSameNameWins() throws {
        let vendor = file(vendorDir, "acme.conf", "[App]\nName=acme\nUser=acme\nSupports=Bluetooth\n[Bluetooth]\nNames=Vendor")
        let admin = file(adminDir, "acme.conf", "[App]\nName=acme\nUser=acme\nSupports=Bluetooth\n[Bluetooth]\nNames=Admin")
        let catalog = AppManifestLoader.load(vendor: [vendor], administrator: [admin])
        #expect(try #require(catalog["acme"]).bluetoothNames == ["Admin"])
        #expect(catalog["acme"]?.source == "\(adminDir)/acme.conf")
    }

    @Test func administratorsBrokenFileStillWins() {
        let vendor = file(vendorDir, "acme.conf", "[App]\nName=acme\nUser=acme\nSupports=Bluetooth")
        let admin = file(adminDir, "acme.conf", "[App]\nName=acme\nUser=acme")
        let catalog = AppManifestLoader.load(vendor: [vendor], administrator: [admin])
        #expect(catalog["acme"] == nil)
        #expect(catalog.errors.map(\.source) == ["\(adminDir)/acme.conf"])
    }

    @Test func emptyAdministratorFileMasksTheApp() {
        let vendor = file(vendorDir, "acme.conf", "[App]\nName=acme\nUser=acme\nSupports=Bluetooth")
        let catalog = AppManifestLoader.load(vendor: [vendor], administrator: [file(adminDir, "acme.conf", "")])
        #expect(catalog.manifests.isEmpty)
        #expect(catalog.masked == ["acme"])
        #expect(catalog.errors.isEmpty)
    }

    @Test func onlyConfFilesCountAndAdminOnlyAppsLoad() {
        let catalog = AppManifestLoader.load(
            vendor: [file(vendorDir, "acme.conf.dpkg-old", "garbage"), file(vendorDir, "README", "garbage")],
            administrator: [file(adminDir, "local.conf", "[App]\nName=local\nUser=local\nSupports=Wi-Fi")])
        #expect(catalog.errors.isEmpty)
        #expect(Array(catalog.manifests.keys) == ["local"])
    }

    @Test func findsTheAppOfACaller() {
        let catalog = AppManifestLoader.load(vendor: [
            file(vendorDir, "a.conf", "[App]\nName=a\nUser=shared\nUnit=a.service\nSupports=Wi-Fi"),
            file(vendorDir, "b.conf", "[App]\nName=b\nUser=shared\nSupports=Wi-Fi"),
            file(vendorDir, "c.conf", "[App]\nName=c\nUser=cuser\nSupports=Wi-Fi"),
        ], administrator: [])
        #expect(catalog.manifest(forUser: "shared", unit: "a.service")?.app == "a")
        #expect(catalog.manifest(forUser: "shared", unit: "session-4.scope")?.app == "b")
        #expect(catalog.manifest(forUser: "cuser", unit: nil)?.app == "c")
        #expect(catalog.manifest(forUser: "nobody", unit: nil) == nil)
    }
}

@Suite struct ManifestAdmissionTests {
    let manifest = AppManifest(
        app: "acme", user: "acme", supports: [.bluetooth, .wifi],
        bluetoothServiceUUIDs: [BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!],
        bluetoothCompanyIdentifiers: [0x004C], bluetoothNames: ["Acme", "ACME-*"],
        ssids: [SSID("Acme Setup")!, SSID(bytes: [0x41, 0xFF])!], ssidPrefixes: [Array("ACME-".utf8)])

    static let admitted: [DiscoveryDescriptor] = [
        .init(bluetoothCompanyIdentifier: 0x004C, bluetoothNameSubstring: "Acme"),
        .init(bluetoothServiceUUID: BluetoothUUID("6e400001-b5a3-f393-e0a9-e50e24dcca9e"), bluetoothNamePattern: "ACME-*"),
        .init(bluetoothCompanyIdentifier: 0x004C, bluetoothManufacturerDataBlob: [1], bluetoothManufacturerDataMask: [1]),
        .init(ssid: SSID("Acme Setup")),
        .init(ssid: SSID(bytes: [0x41, 0xFF])),
        .init(ssid: SSID("ACME-Kitchen")),
        .init(ssidPrefix: Array("ACME-".utf8)),
        .init(ssidPrefix: Array("ACME-K".utf8)),
    ]

    @Test(arguments: admitted)
    func declaredValuesAreAdmitted(_ descriptor: DiscoveryDescriptor) throws {
        #expect(throws: Never.self) { try manifest.admit(descriptor) }
    }

    static let refused: [(DiscoveryDescriptor, ManifestViolation)] = [
        (.init(bluetoothCompanyIdentifier: 0x0059, bluetoothNameSubstring: "Acme"), .undeclaredCompanyIdentifier(0x0059)),
        (.init(bluetoothServiceUUID: BluetoothUUID("180F"), bluetoothNameSubstring: "Acme"), .undeclaredServiceUUID(BluetoothUUID("180F")!)),
        (.init(bluetoothCompanyIdentifier: 0x004C, bluetoothNameSubstring: "acme"), .undeclaredName("acme")),
        (.init(bluetoothCompanyIdentifier: 0x004C, bluetoothNamePattern: "*"), .undeclaredName("*")),
        (.init(ssid: SSID("Other")), .undeclaredSSID(SSID("Other")!)),
        (.init(ssid: SSID(bytes: [0x41, 0xFE])), .undeclaredSSID(SSID(bytes: [0x41, 0xFE])!)),
        (.init(ssidPrefix: Array("ACME".utf8)), .undeclaredSSIDPrefix(Array("ACME".utf8))),
    ]

    @Test(arguments: refused)
    func undeclaredValueIsInvalidRequestNamingIt(descriptor: DiscoveryDescriptor, violation: ManifestViolation) {
        #expect(throws: AccessorySetupError.invalidRequest(violation)) { try manifest.admit(descriptor) }
        do { try manifest.admit(descriptor) } catch { #expect(error.code == .invalidRequest) }
    }

    /// Issue 26: a descriptor asking for pairing is refused by name unless
    /// the manifest declares `[Bluetooth] Pairing=yes`; other options need no declaration.
    @Test func pairingMustBeDeclared() throws {
        var descriptor = DiscoveryDescriptor(bluetoothCompanyIdentifier: 0x004C, bluetoothNameSubstring: "Acme")
        descriptor.supportedOptions = [.bluetoothPairingLE]
        #expect(!manifest.bluetoothPairing)
        #expect(throws: AccessorySetupError.invalidRequest(.undeclaredPairing)) { try manifest.admit(descriptor) }
        #expect(AccessorySetupError.invalidRequest(.undeclaredPairing).description
            == "invalidRequest (450): not declared in the app's manifest: option bluetoothPairingLE needs [Bluetooth] Pairing=yes")

        var declared = manifest
        declared.bluetoothPairing = true
        #expect(throws: Never.self) { try declared.admit(descriptor) }

        var others = descriptor
        others.supportedOptions = [.bluetoothTransportBridging, .bluetoothHID]
        #expect(throws: Never.self) { try manifest.admit(others) }
    }

    @Test func radiosNotInSupportsAreRefused() {
        var bluetoothOnly = manifest
        bluetoothOnly.supports = [.bluetooth]
        #expect(throws: AccessorySetupError.invalidRequest(.wifiNotSupported)) { try bluetoothOnly.admit(.init(ssid: SSID("Acme Setup"))) }
        var wifiOnly = manifest
        wifiOnly.supports = [.wifi]
        #expect(throws: AccessorySetupError.invalidRequest(.bluetoothNotSupported)) {
            try wifiOnly.admit(.init(bluetoothCompanyIdentifier: 0x004C, bluetoothNameSubstring: "Acme"))
        }
    }

    @Test func invalidDescriptorIsInvalidRequestBeforeTheManifestIsConsulted() {
        #expect(throws: AccessorySetupError.invalidRequest(DiscoveryDescriptorError.missingBluetoothCriterion)) {
            try manifest.admit(.init(bluetoothCompanyIdentifier: 0x0059))
        }
    }

    @Test func everyUndeclaredValueIsListed() {
        let descriptor = DiscoveryDescriptor(bluetoothCompanyIdentifier: 1, bluetoothServiceUUID: BluetoothUUID("180F"), bluetoothNameSubstring: "x")
        #expect(manifest.violations(of: descriptor) == [
            .undeclaredServiceUUID(BluetoothUUID("180F")!), .undeclaredCompanyIdentifier(1), .undeclaredName("x"),
        ])
        #expect(AccessorySetupError.invalidRequest(.undeclaredCompanyIdentifier(0x0059)).description
            == "invalidRequest (450): not declared in the app's manifest: company identifier 0x0059 is not in [Bluetooth] CompanyIdentifiers=")
    }
}

@Suite struct AccessorySetupErrorTests {
    @Test func codesMatchAccessorySetupKit() {
        let expected: [(AccessorySetupError.Code, Int, String)] = [
            (.success, 0, "success"), (.unknown, 1, "unknown"), (.activationFailed, 100, "activationFailed"),
            (.connectionFailed, 150, "connectionFailed"), (.discoveryTimeout, 200, "discoveryTimeout"),
            (.extensionNotFound, 300, "extensionNotFound"), (.invalidated, 400, "invalidated"),
            (.invalidRequest, 450, "invalidRequest"), (.pickerAlreadyActive, 500, "pickerAlreadyActive"),
            (.pickerRestricted, 550, "pickerRestricted"), (.userCancelled, 700, "userCancelled"),
            (.userRestricted, 750, "userRestricted"),
        ]
        #expect(AccessorySetupError.Code.allCases.count == expected.count)
        for (code, number, name) in expected {
            #expect(code.rawValue == number)
            #expect(code.description == name)
            #expect(AccessorySetupError.Code(rawValue: number) == code)
        }
    }
}
