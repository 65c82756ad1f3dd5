import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Foundation
import Glibc
import Testing
import TestSupport

@testable import AccessoryDaemon

/// Issue 12's acceptance, on a real private dbus-daemon: while wpa_supplicant
/// (a control socket that does not answer) holds an app's `JoinHotspot`, the
/// D-Bus API still answers that app's other calls. Shown by order: the other
/// call is answered while the join still waits for wpa_supplicant's first
/// reply, and only then does the stand-in answer (FAIL), which ends the join
/// with its typed result. The request timeout is long so that nothing here
/// depends on how fast anything runs.
@Suite(.serialized) struct StalledWPASupplicantBusTests {
    static let camera = Grant(accessory: AccessoryID(0xD2), app: "acme", displayName: "Camera", state: .authorized,
                              ssid: SSID("ACME-Cam"))

    @Test func theBusAnswersWhileWPASupplicantHasNotAnsweredTheJoinYet() throws {
        let h = try ServiceHarness(manifests: [PickerFeatureTests.app], grants: [Self.camera])
        let signals = h.scratch.path("signals")
        try FileManager.default.createDirectory(atPath: signals, withIntermediateDirectories: true)
        chmod(signals, 0o777)
        try FileManager.default.createDirectory(atPath: h.scratch.path("wpa"), withIntermediateDirectories: true)
        let peer = try UnixDatagramPeer(path: h.scratch.path("wpa/lo"))
        let joiner = HotspotJoiner(loop: h.loop, settings: HotspotJoinSettings(
            controlDirectory: h.scratch.path("wpa"), runtimeDirectory: h.scratch.path("run"),
            stateDirectory: h.scratch.path("state"), networkManagerDirectory: h.scratch.path("no-nm"),
            requestTimeout: .seconds(600)))
        h.service.hotspots = joiner
        h.service.joinInterfaceChoice = { "lo" }

        var order: [String] = []
        var listNetworksFrom: String?
        let peerWatch = try h.loop.watch(fd: peer.fd) { _ in
            while let request = peer.receive() {
                order.append("wpa_supplicant got \(request.text)")
                if request.text == "LIST_NETWORKS" {
                    listNetworksFrom = request.sender
                    FileManager.default.createFile(atPath: signals + "/stalled", contents: nil)
                }
            }
        }
        defer { h.loop.stopWatching(peerWatch) }

        // The join waits for its answer while the app makes another call.
        let client = try h.startClient([
            ["session"], ["call-later", "session", BusNames.session, "JoinHotspot", "/org/accessoryagent/accessory/00000000000000d2", ""],
            ["wait", signals + "/stalled"], ["call", BusNames.root, BusNames.manager, "OpenSession"],
            ["mark", signals + "/answered"], ["until", "reply"],
        ], as: "nobody")

        h.pump { FileManager.default.fileExists(atPath: signals + "/answered") || !client.0.isRunning }
        let pendingWhenAnswered = joiner.join(on: "lo").map { $0.result == nil } ?? false
        order.append("the app's other call answered")
        // Now wpa_supplicant answers, refusing: the join ends with a typed result.
        if let listNetworksFrom { peer.reply("FAIL\n", to: listNetworksFrom) }
        let output = h.finish(client)

        #expect(order == ["wpa_supplicant got LIST_NETWORKS", "the app's other call answered"])
        #expect(pendingWhenAnswered, "the join was still waiting for wpa_supplicant")
        let lines = output.split(separator: "\n").filter { !$0.hasPrefix("signal ") }
        #expect(lines.count == 2 && lines[0].hasPrefix("/org/accessoryagent/session/"), "the other call answered: \(output)")
        #expect(lines.last == "reply failed lo ", "\(output)")
        #expect(joiner.join(on: "lo") == nil)
        withExtendedLifetime((h, joiner, peer)) {}
    }
}
