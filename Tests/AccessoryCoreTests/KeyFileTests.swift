import Testing
@testable import AccessoryCore

@Suite struct KeyFileTests {
    @Test func parsesSectionsEntriesAndLines() throws {
        let text = """
            # comment
            [Bluetooth]
            Enabled = yes
            ; another comment

            [Wi-Fi]
            ScanInterval=30s
            Empty=
            """
        let file = try KeyFile(parsing: Array(text.utf8), source: "a.conf")
        #expect(file.sections == ["Bluetooth", "Wi-Fi"])
        #expect(file.entries == [
            .init(section: "Bluetooth", key: "Enabled", value: "yes", line: 3),
            .init(section: "Wi-Fi", key: "ScanInterval", value: "30s", line: 7),
            .init(section: "Wi-Fi", key: "Empty", value: "", line: 8),
        ])
    }

    @Test(arguments: [
        ("[Open\nKey=1", 1, KeyFileError.Reason.malformedSectionHeader("[Open")),
        ("[]\n", 1, .malformedSectionHeader("[]")),
        ("[A]\njust words", 2, .missingEquals("just words")),
        ("[A]\nba d=1", 2, .malformedKey("ba d")),
        ("[A]\n=1", 2, .malformedKey("")),
        ("Key=1\n[A]", 1, .assignmentOutsideSection("Key")),
    ])
    func rejectsMalformedSyntax(text: String, line: Int, reason: KeyFileError.Reason) {
        #expect(throws: KeyFileError(source: "f", line: line, reason: reason)) {
            try KeyFile(parsing: Array(text.utf8), source: "f")
        }
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: KeyFileError(source: "f", line: nil, reason: .notUTF8)) {
            try KeyFile(parsing: [0x5B, 0x41, 0x5D, 0x0A, 0xFF], source: "f")
        }
    }

    @Test func errorNamesFileLineAndKey() {
        let error = KeyFileError(
            source: "/etc/accessoryd/accessoryd.conf", line: 4,
            reason: .unknownKey(section: "Bluetooth", key: "Colour"))
        #expect(error.description == "/etc/accessoryd/accessoryd.conf:4: unknown key 'Colour' in [Bluetooth]")
    }
}

@Suite struct KeyFileSectionHeaderTests {
    @Test func sectionHeadersCarryTheirLines() throws {
        let file = try KeyFile(parsing: Array("# c\n[App]\nName=a\n\n[Wi-Fi]\n[App]\nUser=u".utf8), source: "f")
        #expect(file.sectionHeaders == [
            .init(name: "App", line: 2), .init(name: "Wi-Fi", line: 5), .init(name: "App", line: 6),
        ])
        #expect(file.sections == ["App", "Wi-Fi", "App"])
    }
}

@Suite struct TimeSpanTests {
    @Test(arguments: [
        ("90", Duration.seconds(90)), ("45s", .seconds(45)), ("45 sec", .seconds(45)), ("1500ms", .milliseconds(1500)),
        ("2min", .seconds(120)), ("2m", .seconds(120)), ("1h", .seconds(3600)), ("1.5", .milliseconds(1500)), ("0", .zero),
    ])
    func parses(text: String, duration: Duration) {
        #expect(TimeSpan.parse(text) == duration)
    }

    @Test(arguments: ["", "s", "ten", "-1", "1e3", "2d", "nan", "inf", "25h", "1..5"])
    func rejects(text: String) {
        #expect(TimeSpan.parse(text) == nil)
    }
}
