import Logging
import Testing
@testable import AccessorySystem

@Suite struct JournalEntryTests {
    @Test func carriesTheStandardFieldsFirst() {
        let entry = JournalEntry(
            level: .notice, message: "ready\nsecond line", metadata: ["accessory.id": "A1", "message_id": "abc"],
            identifier: "accessoryd", file: "AccessoryDaemon/Daemon.swift", line: 42, function: "run()")
        let names = entry.fields.map(\.name)
        #expect(names == [
            "MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER", "CODE_FILE", "CODE_LINE", "CODE_FUNC", "ACCESSORY_ID", "MESSAGE_ID",
        ])
        #expect(entry.fields[0].value == "ready\nsecond line")
        #expect(entry.fields[1].value == "5")
        #expect(entry.fields[4].value == "42")
    }

    @Test(arguments: [
        (Logger.Level.trace, 7), (.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3), (.critical, 2),
    ])
    func mapsLevelsToSyslogPriorities(level: Logger.Level, priority: Int) {
        #expect(JournalEntry.priority(level) == priority)
    }

    @Test func flattensNestedMetadataIntoSeparateFields() {
        let entry = JournalEntry(
            level: .info, message: "m",
            metadata: ["radio": ["hci": "0", "wifi": ["name": "wlan0"]], "list": ["a", "b"]],
            identifier: "x", file: "f", line: 1, function: "g")
        let custom = entry.fields.dropFirst(6).map { "\($0.name)=\($0.value)" }
        #expect(custom == ["LIST=a,b", "RADIO_HCI=0", "RADIO_WIFI_NAME=wlan0"])
    }

    @Test func metadataCannotOverwriteTheMessage() {
        let entry = JournalEntry(
            level: .info, message: "real", metadata: ["message": "fake"],
            identifier: "x", file: "f", line: 1, function: "g")
        #expect(entry.fields.filter { $0.name == "MESSAGE" }.map(\.value) == ["real"])
        #expect(entry.fields.contains { $0.name == "META_MESSAGE" && $0.value == "fake" })
    }
}

@Suite struct ConsoleLogHandlerTests {
    @Test func formatsAReadableLine() {
        let line = ConsoleLogHandler.format(
            time: "10:00:00.000", level: .notice, message: "ready",
            metadata: ["b": "2", "a": "1", "message_id": "ignored"])
        #expect(line == "10:00:00.000 notice  ready [a=1 b=2]")
    }
}
