import Testing
@testable import AccessoryPlatform

@Suite struct JournalFieldNameTests {
    @Test(arguments: [
        ("accessory.id", "ACCESSORY_ID"),
        ("bluetooth.controllers", "BLUETOOTH_CONTROLLERS"),
        ("wifi-interface name", "WIFI_INTERFACE_NAME"),
        ("message_id", "MESSAGE_ID"),
        ("ALREADY_FINE_9", "ALREADY_FINE_9"),
        // journald silently drops these as they are; they must be renamed instead.
        ("_pid", "META__PID"),
        ("9lives", "META_9LIVES"),
        ("message", "META_MESSAGE"),
        ("priority", "META_PRIORITY"),
        ("", "META_"),
        ("ключ", "D0BAD0BBD18ED187"),
        ("naïve", "NAC3AFVE"),
    ])
    func mapsKeys(key: String, expected: String) {
        let name = JournalFieldName.mapping(key)
        #expect(name == expected)
        #expect(JournalFieldName.isValid(name))
    }

    @Test func capsTheLengthAtSixtyFour() {
        let name = JournalFieldName.mapping(String(repeating: "a.", count: 50))
        #expect(name.count == 64)
        #expect(JournalFieldName.isValid(name))
    }

    @Test(arguments: ["lower", "_X", "1X", "A-B", "", String(repeating: "A", count: 65)])
    func recognisesInvalidNames(name: String) {
        #expect(!JournalFieldName.isValid(name))
    }
}
