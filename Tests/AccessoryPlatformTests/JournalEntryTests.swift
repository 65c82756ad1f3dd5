import Logging
import Testing
@testable import AccessoryPlatform

@Suite struct JournalEntryTests {
    @Test func carriesTheStandardFieldsFirst() {
        let entry = JournalEntry(
            level: .notice, message: "ready\nsecond line", metadata: ["accessory.id": "A1", "message_id": "abc"],
            identifier: "accessoryd", file: "AccessoryDaemon/Daemon.swift", line: 42, function: "run()")
        let names = entry.fields.map(\.name)
        #expect(names == [
            "MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER", "CODE_FILE", "CODE_LINE", "CODE_FUNC", "ACCESSORY_ID", "MESSAGE_ID",
        ])
        // One entry is one line, whatever an app put in a name.
        #expect(entry.fields[0].value == "ready\\x0Asecond line")
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

    /// Issue 12: an app's item name with an escape sequence, a newline
    /// forging a log line, or a bidi override reaches no log raw.
    @Test func escapesControlCharactersFromAppsInMessageAndMetadata() {
        let name = "Lamp\u{1B}[2J\nFeb 30 accessoryd: approved\u{202E}"
        let entry = JournalEntry(
            level: .notice, message: "acme asks for \(name)", metadata: ["items": .array([.string(name)]), "name": .string(name)],
            identifier: "x", file: "f", line: 1, function: "g")
        let escaped = "Lamp\\x1B[2J\\x0AFeb 30 accessoryd: approved\\u{202E}"
        #expect(entry.fields[0].value == "acme asks for \(escaped)")
        #expect(entry.fields.contains { $0.name == "ITEMS" && $0.value == escaped })
        #expect(entry.fields.contains { $0.name == "NAME" && $0.value == escaped })
        let line = ConsoleLogHandler.format(time: "t", level: .notice, message: "acme asks for \(name)",
                                            metadata: ["name": .string(name)])
        #expect(line == "t notice  acme asks for \(escaped) [name=\(escaped)]")
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
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
