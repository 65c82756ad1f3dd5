import AccessoryCodecs
import AccessoryCore
import AccessoryDecisions
import AccessoryPlatform
import Foundation
import Glibc
import Testing
import TestSupport

@testable import AccessoryDaemon

@Suite("Hotspot join record and restore")
struct HotspotJoinRecordTests {
    private func id(_ n: Int) -> WPANetworkID { WPANetworkID(n)! }

    @Test("the record survives encoding, hostile SSID included, and holds no secret")
    func roundTrip() throws {
        let record = JoinRecord(
            interface: "wlan0", controlDirectory: "/run/wpa_supplicant", temporaryNetwork: id(2),
            temporarySSID: try #require(SSID(bytes: Array("a\"b\n".utf8) + [0xFF])),
            previous: NetworkSnapshot(current: id(0), enabled: [id(0), id(1)]),
            dhcpPIDFile: "/run/accessoryd/udhcpc-wlan0.pid")
        #expect(try JoinRecord(decoding: record.encoded) == record)
        let none = JoinRecord(
            interface: "wlan1", controlDirectory: "/x", temporaryNetwork: id(0), temporarySSID: SSID("")!,
            previous: NetworkSnapshot(current: nil, enabled: []), dhcpPIDFile: "/p")
        #expect(try JoinRecord(decoding: none.encoded) == none)
    }

    @Test("a damaged record is refused by name")
    func damaged() {
        #expect(throws: JoinRecord.DecodingError.missing("interface")) { try JoinRecord(decoding: Array("x=1\n".utf8)) }
        #expect(throws: JoinRecord.DecodingError.malformed("line without '='")) { try JoinRecord(decoding: Array("garbage\n".utf8)) }
        let text = """
            interface=wlan0/../x
            control_directory=/c
            temporary_network=1
            temporary_ssid=41
            previous_current=
            previous_enabled=
            dhcp_pid_file=/p
            """
        #expect(throws: JoinRecord.DecodingError.malformed("interface")) { try JoinRecord(decoding: Array(text.utf8)) }
        let badSSID = text.replacingOccurrences(of: "wlan0/../x", with: "wlan0").replacingOccurrences(of: "=41", with: "=4")
        #expect(throws: JoinRecord.DecodingError.malformed("temporary_ssid")) { try JoinRecord(decoding: Array(badSSID.utf8)) }
    }

    @Test("the snapshot of the lab's LIST_NETWORKS restores the uplink and re-enables the others")
    func snapshot() throws {
        // LIST_NETWORKS from Fixtures/wifi/wpa_supplicant/join-uplink.transcript, plus a
        // disabled and a second enabled network.
        let reply = Array("network id / ssid / bssid / flags\n0\tHome-Gateway\tany\t[CURRENT]\n1\tOld\tany\t[DISABLED]\n3\tBackup\tany\t\n".utf8)
        let snapshot = NetworkSnapshot(try WPAReply.networkList(reply))
        #expect(snapshot == NetworkSnapshot(current: id(0), enabled: [id(0), id(3)]))
        #expect(snapshot.restoreCommands == [.selectNetwork(id(0)), .enableNetwork(id(3))])
        #expect(NetworkSnapshot(current: nil, enabled: [id(2)]).restoreCommands == [.enableNetwork(id(2))])
    }

    @Test("wpa_supplicant's events become the state machine's signals, for our network only")
    func signals() {
        let ours = id(4)
        #expect(HotspotJoinSignal(.connected(bssid: nil, networkID: ours), joining: ours) == .connected)
        #expect(HotspotJoinSignal(.connected(bssid: nil, networkID: id(0)), joining: ours) == nil)
        #expect(HotspotJoinSignal(.temporarilyDisabled(networkID: ours, reason: "WRONG_KEY"), joining: ours)
            == .temporarilyDisabled(reason: "WRONG_KEY"))
        #expect(HotspotJoinSignal(.temporarilyDisabled(networkID: id(0), reason: "WRONG_KEY"), joining: ours) == nil)
        #expect(HotspotJoinSignal(.fourWayHandshakeFailed, joining: ours) == .handshakeFailed)
        #expect(HotspotJoinSignal(.networkNotFound, joining: ours) == .networkNotFound)
        #expect(HotspotJoinSignal(.associationRejected(bssid: nil, status: 17), joining: ours) == .associationRejected(status: 17))
        #expect(HotspotJoinSignal(.terminating, joining: ours) == .failed(reason: "wpa_supplicant stopped"))
        #expect(HotspotJoinSignal(.scanResults, joining: ours) == nil)
    }

    @Test("only plain interface names are accepted")
    func interfaceNames() {
        for good in ["wlan0", "wlp2s0", "wl.x-1_2", "a"] { #expect(HotspotJoiner.isPlainInterfaceName(good)) }
        for bad in ["", ".", "..", "wlan0/x", "a b", "wlan\"0", "0123456789abcdef", "wlan0\n"] {
            #expect(!HotspotJoiner.isPlainInterfaceName(bad), "\(bad)")
        }
    }
}

@Suite("Hotspot joiner refusals")
struct HotspotJoinerRefusalTests {
    @Test("no wpa_supplicant on the interface: refused, nothing recorded")
    func noSupplicant() throws {
        let scratch = try ScratchDirectory("join")
        let base = scratch.path
        let settings = HotspotJoinSettings(
            controlDirectory: "\(base)/no-wpa", runtimeDirectory: "\(base)/run", stateDirectory: "\(base)/state",
            networkManagerDirectory: "\(base)/no-nm")
        let joiner = HotspotJoiner(loop: try EventLoop(), settings: settings)
        #expect(throws: HotspotJoinError.self) {
            try joiner.join(ssid: SSID("Lamp")!, credential: .open, interface: "lo") { _ in }
        }
        #expect(joiner.join(on: "lo") == nil)
        #expect(!FileManager.default.fileExists(atPath: "\(base)/state"))
    }

    @Test("a bad interface name is refused before anything else")
    func badName() throws {
        let joiner = HotspotJoiner(loop: try EventLoop(), settings: HotspotJoinSettings(runtimeDirectory: "/nonexistent", stateDirectory: "/nonexistent"))
        #expect(throws: HotspotJoinError.invalidInterfaceName("../x")) {
            try joiner.join(ssid: SSID("Lamp")!, credential: .open, interface: "../x") { _ in }
        }
    }
}
