import AccessoryCore
import Testing

@testable import AccessoryDaemon

@Suite("NetworkManager join records")
struct NetworkManagerJoinRecordTests {
    @Test("round trip, and no secret in it")
    func roundTrip() throws {
        let record = NetworkManagerJoinRecord(interface: "wlan0", profileUUID: NetworkManagerJoinRecord.newUUID(),
                                              uplinkUUID: "5e1f6a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b")
        #expect(try NetworkManagerJoinRecord(decoding: record.encoded) == record)
        #expect(String(decoding: record.encoded, as: UTF8.self).split(separator: "\n").map { $0.split(separator: "=")[0] }
                == ["interface", "profile_uuid", "uplink_uuid"])
        let noUplink = NetworkManagerJoinRecord(interface: "wlan0", profileUUID: record.profileUUID, uplinkUUID: "")
        #expect(try NetworkManagerJoinRecord(decoding: noUplink.encoded) == noUplink)
        #expect(NetworkManagerJoinRecord.fileName(interface: "wlan0") == "hotspot-join-wlan0.nm-record")
    }

    @Test("uuids are fresh, version 4, in NetworkManager's form")
    func uuids() {
        let a = NetworkManagerJoinRecord.newUUID()
        let b = NetworkManagerJoinRecord.newUUID()
        #expect(a != b)
        #expect(NetworkManagerJoinRecord.isUUID(a))
        #expect(Array(a)[14] == "4")
    }

    @Test("a damaged record is refused, not half read",
          arguments: ["interface=wlan0\nprofile_uuid=nope\nuplink_uuid=\n",
                      "interface=../x\nprofile_uuid=0f8e5f4a-1b2c-4d3e-8f90-a1b2c3d4e5f6\nuplink_uuid=\n",
                      "interface=wlan0\nprofile_uuid=0f8e5f4a-1b2c-4d3e-8f90-a1b2c3d4e5f6\n",
                      "interface=wlan0\ngarbage\n"])
    func damaged(text: String) {
        #expect(throws: JoinRecord.DecodingError.self) { try NetworkManagerJoinRecord(decoding: Array(text.utf8)) }
    }
}
