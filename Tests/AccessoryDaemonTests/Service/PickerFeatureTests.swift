import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Foundation
import Testing
import TestSupport
@testable import AccessoryDaemon

/// The rest of the picker and authorization model: filtered discovery,
/// two-phase setup, renames, removals by the administrator, approval
/// windows, picker agents, migration, and advertisement updates.
@Suite(.serialized) struct PickerFeatureTests {
    static let image = "/usr/share/accessoryd/images/acme/sensor.png"
    static let app = AppManifest(app: "acme", user: "nobody", productImages: [image], supports: [.bluetooth, .wifi],
                                 bluetoothServiceUUIDs: [BluetoothUUID(uuid16: 0x180F)], bluetoothNames: ["Acme"],
                                 ssidPrefixes: [Array("ACME-".utf8)])
    static let other = AppManifest(app: "other", user: "daemon", supports: .bluetooth,
                                   bluetoothServiceUUIDs: [BluetoothUUID(uuid16: 0x180F)], bluetoothNames: ["Acme"])

    static let acme = SetupErrorPathTests.acme
    static func show(_ descriptor: [String], settings: [String] = [], options: [String] = []) -> [String] {
        SetupErrorPathTests.show(descriptor, settings: settings, options: options)
    }

    @Test func filteredDiscoveryGoesThroughTheAppBeforeAnyoneSeesIt() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let app = try h.startClient([
            ["session"], Self.show(Self.acme, settings: ["FilterDiscoveryResults=true"], options: ["rename"]),
            ["until", "AccessoryDiscovered"], ["update", "1", "Kitchen sensor", Self.image],
            ["until", "PickerDidDismiss"],
        ], as: "nobody")
        h.pump { !h.service.center.requests.isEmpty }
        let number = try #require(h.service.center.requests.keys.first)
        h.hear("C0:FF:EE:00:00:10", name: "Acme 10", service: 0x180F)
        // Hidden from the administrator until the app shows it.
        h.pump { h.service.center.requests[number]?.visibleCandidates.isEmpty == false }
        let candidates = try h.busctl(["call", "org.accessoryagent", "/org/accessoryagent", "org.accessoryagent.Admin1",
                                       "ListCandidates", "u", "\(number)"])
        #expect(candidates == "a(ussssis) 1 1 \"Acme sensor\" \"Kitchen sensor\" \"bluetooth\" \"C0:FF:EE:00:00:10/public\" -50 \"\(Self.image)\"\n")
        let approved = try h.accessoryctl(["approve", "\(number)", "1", "--name", "Pantry"])
        #expect(approved.status == 0, "\(approved.err)")
        let grant = try #require(h.store.grants.values.first)
        let path = BusNames.path(of: grant.accessory)
        let lines = h.finish(app).split(separator: "\n").map(String.init)
        #expect(lines.contains("signal AccessoryDiscovered 1 Acme 10 C0:FF:EE:00:00:10/public -50 020106080941636d652031300303 0f18".replacingOccurrences(of: "0303 0f18", with: "03030f18")))
        #expect(lines.contains("ok"))
        #expect(Array(lines.suffix(3)) == ["signal AccessoryAdded \(path)", "signal PickerSetupRename \(path)", "signal PickerDidDismiss  "])
        #expect(grant.displayName == "Pantry")
    }

    @Test func aDeviceHeardJustBeforeThePickerIsACandidateAtOnce() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        // One heard long ago (gone, as far as anyone knows: silent for longer than
        // a device with no learned interval may be); one heard once just before
        // anyone asked, saying the same thing from then on.
        h.hear("C0:FF:EE:00:00:13", name: "Acme 13", service: 0x180F)
        h.scheduler.advance(by: h.pipeline.registry.configuration.unlearnedTimeout + .seconds(1))
        h.hear("C0:FF:EE:00:00:12", name: "Acme 12", service: 0x180F)
        let app = try h.startClient([["session"], Self.show(Self.acme), ["until", "PickerDidDismiss"]], as: "nobody")
        h.pump { !h.service.center.requests.isEmpty }
        let number = try #require(h.service.center.requests.keys.first)
        #expect(h.service.center.requests[number]?.visibleCandidates.map(\.advertisedName) == ["Acme 12"])
        #expect(try h.accessoryctl(["approve", "\(number)", "1"]).status == 0)
        _ = h.finish(app)
    }

    @Test func aNameFromTheAdministratorNeedsTheRenameOption() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let app = try h.startClient([["session"], Self.show(Self.acme), ["until", "PickerDidDismiss"]], as: "nobody")
        h.pump { !h.service.center.requests.isEmpty }
        let number = try #require(h.service.center.requests.keys.first)
        h.hear("C0:FF:EE:00:00:11", name: "Acme 11", service: 0x180F)
        let refused = try h.accessoryctl(["approve", "\(number)", "1", "--name", "Mine"])
        #expect(refused.status == 1)
        #expect(refused.err.contains("did not offer renaming"))
        #expect(try h.accessoryctl(["approve", "\(number)", "1"]).status == 0)
        _ = h.finish(app)
        #expect(h.store.grants.values.first?.displayName == "Acme 11")
    }

    @Test func finishInAppIsTwoPhaseAndAFailedSetupRemovesTheAccessory() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let state = ["call", "accessory", BusNames.properties, "Get", BusNames.accessory, "State"]
        func session(_ method: String, _ arguments: String...) -> [String] {
            ["call", "session", BusNames.session, method, "accessory"] + arguments
        }
        let app = try h.startClient([
            ["session"], Self.show(["SSIDPrefix=ACME-"], options: ["finishInApp"]), ["until", "PickerDidDismiss"], ["explain"],
            state,
            session("FinishAuthorization", "SSID=ACME-Cam-7F,BridgingIdentifier=bridge-1"),
            state,
            session("FinishAuthorization", ""),
            session("UpdateAuthorization", "SSIDPrefix=OTHER-"),
            session("UpdateAuthorization", "SSID=ACME-Cam-7F"),
            session("RenameAccessory", "ACME-Garage", "ssid"),
            ["call", "accessory", BusNames.properties, "GetAll", BusNames.accessory],
            session("FailAuthorization"),
            ["until", "PickerSetupFailed"],
        ], as: "nobody")
        h.pump { !h.service.center.requests.isEmpty }
        let number = try #require(h.service.center.requests.keys.first)
        h.hear(ssid: "ACME-Cam", bssid: "02:00:00:00:01:00")
        #expect(try h.accessoryctl(["approve", "\(number)", "1"]).status == 0)
        let lines = h.finish(app).split(separator: "\n").map(String.init)
        let path = try #require(lines.first { $0.hasPrefix("signal AccessoryAdded ") }?.split(separator: " ").last.map(String.init))
        let id = path.split(separator: "/").last.map(String.init) ?? ""
        // GetAll's answer after the rename, checked apart from the rest.
        let properties = lines.first { $0.hasPrefix("{DisplayName=") } ?? ""
        let events = lines.filter { !$0.hasPrefix("signal InterfacesAdded") && !$0.hasPrefix("signal InterfacesRemoved") }
            .map { $0 == properties ? "GetAll" : $0 }
        #expect(events == [
            "ok",
            "signal Activated []", "signal PropertiesChanged org.accessoryagent.Session1 {State=active} []",
            "signal PickerDidPresent",
            "signal AccessoryAdded \(path)", "signal PickerDidDismiss  ",
            "awaitingAuthorization",
            "ok", "authorized",
            "error org.accessoryagent.Error.invalidRequest \(id) is not awaiting authorization",
            "error org.accessoryagent.Error.invalidRequest not declared in the app's manifest: SSID prefix 'OTHER-' does not start with any of [Wi-Fi] SSIDPrefixes=",
            "ok", "ok",
            "GetAll",
            "ok",
            // Signals queue while the client waits on its calls; they arrive in order.
            // Each change: the new property values first (a client's cache follows), then AccessoryChanged.
            "signal PropertiesChanged org.accessoryagent.Accessory1 {DisplayName=ACME-Cam,State=authorized,SSID=41434d452d43616d2d3746,Descriptor={SSIDPrefix=ACME-},BridgingIdentifier=bridge-1} []",
            "signal AccessoryChanged \(path)",
            "signal PropertiesChanged org.accessoryagent.Accessory1 {DisplayName=ACME-Cam,State=authorized,SSID=41434d452d43616d2d3746,Descriptor={SSID=ACME-Cam-7F},BridgingIdentifier=bridge-1} []",
            "signal AccessoryChanged \(path)",
            "signal PropertiesChanged org.accessoryagent.Accessory1 {DisplayName=ACME-Garage,State=authorized,SSID=41434d452d476172616765,Descriptor={SSID=ACME-Cam-7F},BridgingIdentifier=bridge-1} []",
            "signal AccessoryChanged \(path)",
            "signal AccessoryRemoved \(path)",
            "signal PickerSetupFailed org.accessoryagent.Error.unknown the app failed the setup of ACME-Garage",
        ])
        // Renamed with the ssid option: the grant records the hotspot's new name (ACME-Garage, in hex).
        #expect(properties.contains("SSID=41434d452d476172616765,"), "\(properties)")
        #expect(properties.contains("BridgingIdentifier=bridge-1"), "\(properties)")
        #expect(properties.contains("Descriptor={SSID=ACME-Cam-7F}"), "\(properties)")
        #expect(h.store.grants.isEmpty)
    }

    @Test func anApprovalWindowApprovesTheFirstCandidateAndSaysSo() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let opened = try h.accessoryctl(["allow", "--app", "acme", "--for", "10m"])
        #expect(opened.status == 0, "\(opened.err)")
        #expect(h.service.center.windows.isOpen(for: "acme", at: h.clock.now))
        let app = try h.startClient([["session"], Self.show(Self.acme), ["until", "PickerDidDismiss"]], as: "nobody")
        h.pump { !h.service.center.requests.isEmpty }
        h.hear("C0:FF:EE:00:00:20", name: "Acme 20", service: 0x180F)
        let output = h.finish(app)
        #expect(output.hasSuffix("signal PickerDidDismiss  \n"))
        #expect(h.store.grants.values.first?.bluetooth?.address == HardwareAddress("C0:FF:EE:00:00:20"))
        // Closed again, nothing is approved by itself.
        #expect(try h.accessoryctl(["disallow", "--app", "acme"]).status == 0)
        #expect(!h.service.center.windows.isOpen(for: "acme", at: h.clock.now))
        let refused = try h.accessoryctl(["allow", "--app", "nobody-knows", "--for", "1m"])
        #expect(refused.status == 1)
        #expect(refused.err.contains("app \"nobody-knows\": no app of that name has a manifest; Allow needs one that has"))
    }

    @Test func aRegisteredPickerAgentHearsOfRequestsAndItsAnswerIsRecordedAsItsOwn() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        // The agent (root, as a gateway UI would run) approves the first candidate it is told of.
        let agent = try h.startClient([
            ["serve", "/org/example/agent", "approving"], ["admin", "RegisterAgent", "/org/example/agent"], ["until", "RequestEnded"],
        ])
        h.pump { h.service.center.agent != nil }
        // An open window does not answer while an agent is registered.
        #expect(try h.accessoryctl(["allow", "--app", "acme", "--for", "10m"]).status == 0)
        let app = try h.startClient([["session"], Self.show(Self.acme), ["until", "PickerDidDismiss"]], as: "nobody")
        h.pump { !h.service.center.requests.isEmpty }
        h.hear("C0:FF:EE:00:00:30", name: "Acme 30", service: 0x180F)
        let agentSaid = h.finish(agent)
        let grant = try #require(h.store.grants.values.first)
        #expect(agentSaid == """
            ok
            RequestAdded 1 acme [Acme sensor] [\(Self.image)]
            CandidateAdded 1 1 Acme sensor Acme 30 C0:FF:EE:00:00:30/public -50 \(Self.image)
            approve \(BusNames.path(of: grant.accessory))
            RequestEnded 1 approved

            """)
        #expect(h.finish(app).hasSuffix("signal PickerDidDismiss  \n"))
        // The agent left the bus: it is unregistered.
        h.pump { h.service.center.agent == nil }
        #expect(h.service.center.agent == nil)
    }

    @Test func migrationRegistersKnownAccessoriesOnce() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        // The camera's SSID ends in a NUL byte, escaped as the contract spells one.
        let migrate = [
            ["session"], ["migrate", "Old sensor", "C0:FF:EE:00:00:40", "", "and", "Old camera", "", "ACME-Cam\\x00", "SSIDPrefix=ACME-"],
            ["until", "PickerDidDismiss"],
        ]
        for round in 1...2 {
            let app = try h.startClient(migrate, as: "nobody")
            h.pump { !h.service.center.requests.isEmpty }
            guard let number = h.service.center.requests.keys.first else {
                Issue.record("no migration request: \(h.finish(app))")
                return
            }
            let listed = try h.accessoryctl(["requests"])
            #expect(listed.out.contains("Old camera"), "round \(round)")
            // Known, not heard: no signal strength, rather than a 0 dBm that looks real.
            let cameraLine = listed.out.split(separator: "\n").first { $0.contains("Old camera") && $0.contains(" wifi ") }
            #expect(cameraLine?.hasSuffix(" none") == true, "\(listed.out)")
            #expect(try h.accessoryctl(["approve", "\(number)", "0"]).status == 0)
            let all = h.finish(app).split(separator: "\n").map(String.init)
            let interfacesAdded = all.filter { $0.hasPrefix("signal InterfacesAdded") }
            #expect(interfacesAdded.count == (round == 1 ? 2 : 0), "round \(round)")
            #expect(interfacesAdded.allSatisfy { $0.hasSuffix("Present=false,RSSI=127}}") }, "\(interfacesAdded)")
            let lines = all.filter { !$0.hasPrefix("signal InterfacesAdded") }
            let added = lines.filter { $0.hasPrefix("signal AccessoryAdded") }.count
            #expect(added == (round == 1 ? 2 : 0), "round \(round)")
            #expect(Array(lines.suffix(2)) == ["signal MigrationComplete", "signal PickerDidDismiss  "])
        }
        #expect(h.store.grants.count == 2)
        #expect(h.store.grants.values.contains { $0.ssid == SSID(bytes: Array("ACME-Cam".utf8) + [0]) })
    }

    @Test func theAdministratorRemovesAnAccessoryAndOnlyItsAppIsTold() throws {
        let grant = Grant(accessory: AccessoryID(0xC1), app: "acme", displayName: "Porch", state: .authorized,
                          bluetooth: BluetoothDeviceIdentifier(address: HardwareAddress("C0:FF:EE:00:00:50")!, addressType: .public))
        let h = try ServiceHarness(manifests: [Self.app, Self.other], grants: [grant])
        let release = h.directory + "/release"
        let listener = [["session"], ["listen", release]]
        let a = try h.startClient(listener, as: "nobody")
        let b = try h.startClient(listener, as: "daemon")
        h.pump { h.service.openSessions.filter { $0.state == .active }.count == 2 }
        // Heard: its app gets presence and the advertisement; the other app nothing.
        h.hear("C0:FF:EE:00:00:50", name: "Acme 50", service: 0x180F)
        h.scheduler.advance(by: .milliseconds(100))
        h.hear("C0:FF:EE:00:00:50", name: "Acme 50", service: 0x180F)
        #expect(try h.accessoryctl(["rename", "00000000000000c1", "Front porch"]).status == 0)
        #expect(try h.accessoryctl(["remove", "00000000000000c1"]).status == 0)
        #expect(FileManager.default.createFile(atPath: release, contents: nil))
        let path = BusNames.path(of: AccessoryID(0xC1))
        #expect(h.finish(a) == """
            signal Activated [\(path)]
            signal PropertiesChanged org.accessoryagent.Session1 {State=active} []
            signal PropertiesChanged org.accessoryagent.Accessory1 {Present=true,RSSI=-50} []
            signal Advertisement -50 020106080941636d652035300303 0f18
            signal PropertiesChanged org.accessoryagent.Accessory1 {DisplayName=Front porch,State=authorized,SSID=,Descriptor={},BridgingIdentifier=} []
            signal AccessoryChanged \(path)
            signal AccessoryRemoved \(path)
            signal InterfacesRemoved \(path) [org.accessoryagent.Accessory1]

            """.replacingOccurrences(of: "0303 0f18", with: "03030f18"))
        #expect(h.finish(b) == "signal Activated []\nsignal PropertiesChanged org.accessoryagent.Session1 {State=active} []\n")
        #expect(h.store.grants.isEmpty)
    }
}
