import Testing
@testable import AccessoryCore

@Suite struct NamePatternTests {
    @Test(arguments: [
        ("Acme", "Acme", true), ("Acme", "Acme ", false), ("Acme", "acme", false),
        ("*", "", true), ("*", "anything", true), ("?", "", false), ("?", "é", true),
        ("Acme*", "Acme Sensor", true), ("*Sensor", "Acme Sensor", true), ("*Sen*r*", "Acme Sensor 2", true),
        ("A?me", "Acme", true), ("A?me", "Ame", false),
        ("[AB]cme", "Bcme", true), ("[AB]cme", "Ccme", false),
        ("Acme-[0-9]", "Acme-7", true), ("Acme-[0-9]", "Acme-x", false),
        ("Acme-[!0-9]", "Acme-x", true), ("Acme-[^0-9]", "Acme-7", false),
        ("[]]x", "]x", true), ("[!]]x", "]x", false), ("[a-]", "-", true),
        ("\\*lit", "*lit", true), ("\\*lit", "xlit", false), ("[\\]]", "]", true),
        ("*a*a*a*b", "aaaaaaaab", true), ("a**b", "ab", true), ("*?", "", false),
        ("Caf[é]", "Café", true),
    ])
    func matches(pattern: String, name: String, expected: Bool) throws {
        #expect(try NamePattern(pattern).matches(name) == expected)
    }

    @Test(arguments: [
        ("", NamePatternError.empty),
        ("Acme[0-9", .unterminatedSet(offset: 4)),
        ("[", .unterminatedSet(offset: 0)),
        ("[]", .unterminatedSet(offset: 0)),
        ("Acme\\", .trailingEscape),
        ("[z-a]", .invalidRange(lower: "z", upper: "a")),
        (String(repeating: "a", count: 249), .tooLong(length: 249)),
    ])
    func rejects(pattern: String, error: NamePatternError) {
        #expect(throws: error) { try NamePattern(pattern) }
    }

    /// A pattern that makes a backtracking matcher take exponential time:
    /// here it is a few hundred thousand steps, which a hang would betray.
    @Test func pathologicalPatternIsBounded() throws {
        let pattern = try NamePattern(String(repeating: "*a", count: 100) + "b")
        #expect(!pattern.matches(String(repeating: "a", count: 240)))
        #expect(pattern.matches(String(repeating: "a", count: 120) + "b"))
    }
}
