import AccessoryCore
import AccessoryWire
import Foundation
import Testing

/// The API reference (packaging/man/org.accessoryagent.*.5, one page per
/// interface) against the declarations in AccessoryWire, member by member
/// and both ways, as `ReadmeContractTests` does for the README's tables:
/// every interface has its page, every method, signal and property its
/// synopsis line with kind, signature and argument names, and for
/// properties access and `EmitsChangedSignal`. The pages are what the
/// package installs, so the package's list of man pages is checked too.
@Suite struct ManPageContractTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let manDirectory = root.appendingPathComponent("packaging/man")

    static func interfacePages() throws -> [(interface: String, text: String)] {
        try FileManager.default.contentsOfDirectory(atPath: manDirectory.path)
            .filter { $0.hasPrefix("org.accessoryagent.") && $0.hasSuffix(".5") }
            .sorted()
            .map { (String($0.dropLast(2)), try String(contentsOf: manDirectory.appendingPathComponent($0), encoding: .utf8)) }
    }

    @Test func everyInterfaceHasAPageAndEveryPageListsItsMembers() throws {
        let pages = try Self.interfacePages()
        #expect(Set(pages.map(\.interface)) == Set(BusObjects.apiInterfaces.map(\.name)),
                "one page per interface of BusObjects.apiInterfaces, named INTERFACE.5")
        var documented = ManPageSynopsis.Parsed()
        for page in pages {
            let parsed = ManPageSynopsis.parse(page.text, interface: page.interface)
            #expect(parsed.title == page.interface.uppercased(), "\(page.interface): .TH names the page")
            #expect(parsed.name == page.interface, "\(page.interface): NAME starts with the interface")
            documented.merge(parsed)
        }
        expectTheDeclarations(listed: documented.members, twice: documented.duplicates,
                              unreadable: documented.unreadable, in: "the man pages")
    }

    /// An error a page names is one accessoryd can answer: a page never
    /// promises `org.accessoryagent.Error.somethingElse`.
    @Test func everyErrorNamedIsACode() throws {
        let pages = try FileManager.default.contentsOfDirectory(atPath: Self.manDirectory.path)
            .filter { $0.hasPrefix("org.accessoryagent.") || $0.hasPrefix("accessoryd-dbus.") }
        #expect(!pages.isEmpty)
        for page in pages {
            let text = try String(contentsOf: Self.manDirectory.appendingPathComponent(page), encoding: .utf8)
            for name in ManPageSynopsis.errorNames(in: text) {
                #expect(BusErrorNames.code(ofName: name) != nil || BusErrorNames.pairingAnswerErrors.contains(name),
                        "\(page) names \(name), which is no error code")
            }
        }
    }

    /// What packaging/man holds is what the package installs, and the README links the API pages.
    @Test func thePackageInstallsEveryPageAndTheREADMELinksTheAPI() throws {
        // Each binary package of the source package lists its own pages.
        let listed = try ["accessoryd", "accessory-mqtt"].flatMap { package in
            try String(contentsOf: Self.root.appendingPathComponent("packaging/debian/\(package).manpages"), encoding: .utf8)
                .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let present = try FileManager.default.contentsOfDirectory(atPath: Self.manDirectory.path).map { "packaging/man/\($0)" }
        #expect(Set(listed) == Set(present), "accessoryd.manpages and accessory-mqtt.manpages against packaging/man")
        let readme = try String(contentsOf: ReadmeContractTests.readme, encoding: .utf8)
        for page in ["accessoryd-dbus(7)"] + BusObjects.apiInterfaces.map({ "\($0.name)(5)" }) {
            #expect(readme.contains(page), "the README names \(page)")
        }
    }

    @Test func theParserReadsEveryKindOfSynopsis() {
        let page = #"""
            .TH ORG.ACCESSORYAGENT.EXAMPLE1 5 "2026-11-25" "accessory-agent 0.1.0" "D-Bus API"
            .SH NAME
            org.accessoryagent.Example1 \- an example
            .SH DESCRIPTION
            .SS "NotAMember(s x)"
            .SH METHODS
            .SS "Go(u request, a(ss) items) \(-> (s result, o where)"
            text
            .SS "Stop()"
            .SS "Ask() \(-> ao answers"
            .SS "Broken("
            .SH SIGNALS
            .SS "Went(s why)"
            .SH PROPERTIES
            .SS "s Name [read\-only, constant]"
            .SS "i RSSI [read\-only, not signalled]"
            .SS "s State [read\-only, signalled]"
            .SS "s Vague [read\-only]"
            .SH SEE ALSO
            .SS "Elsewhere()"
            """#
        let parsed = ManPageSynopsis.parse(page, interface: "org.accessoryagent.Example1")
        #expect(parsed.title == "ORG.ACCESSORYAGENT.EXAMPLE1")
        #expect(parsed.name == "org.accessoryagent.Example1")
        #expect(parsed.unreadable == ["Broken(", "s Vague [read-only]"])
        #expect(parsed.members.map(\.description).sorted() == [
            "org.accessoryagent.Example1 method Ask() → (ao answers)",
            "org.accessoryagent.Example1 method Go(u request, a(ss) items) → (s result, o where)",
            "org.accessoryagent.Example1 method Stop() → ()",
            "org.accessoryagent.Example1 property Name: s read const",
            "org.accessoryagent.Example1 property RSSI: i read false",
            "org.accessoryagent.Example1 property State: s read true",
            "org.accessoryagent.Example1 signal Went(s why)",
        ])
        #expect(ManPageSynopsis.errorNames(in: ".B org.accessoryagent.Error.invalidRequest\nand org.accessoryagent.Error.nope.")
                == ["org.accessoryagent.Error.invalidRequest", "org.accessoryagent.Error.nope"])
    }
}

/// Reads an interface page's synopsis lines: under `.SH METHODS`,
/// `.SH SIGNALS` and `.SH PROPERTIES`, each `.SS` line is one member:
/// `Go(u request) \(-> (s result, o where)`, `Went(s why)`,
/// `s Name [read\-only, constant]` (`signalled`, `constant` or `not signalled`:
/// `EmitsChangedSignal` true, const or false).
enum ManPageSynopsis {
    struct Parsed {
        var title: String?
        var name: String?
        var members: Set<DocumentedMember> = []
        var duplicates: [DocumentedMember] = []
        var unreadable: [String] = []

        mutating func merge(_ other: Parsed) {
            for member in other.members where !members.insert(member).inserted { duplicates.append(member) }
            duplicates += other.duplicates
            unreadable += other.unreadable
        }
    }

    static func parse(_ page: String, interface: String) -> Parsed {
        var parsed = Parsed()
        var section = ""
        var lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
        while let line = lines.popFirst() {
            if line.hasPrefix(".TH ") {
                parsed.title = unescaped(String(line.dropFirst(4))).split(separator: " ").first.map(String.init)
            } else if line.hasPrefix(".SH ") {
                section = unescaped(String(line.dropFirst(4)))
                if section == "NAME", let next = lines.first {
                    parsed.name = unescaped(next).split(separator: " ").first.map(String.init)
                }
            } else if line.hasPrefix(".SS "), ["METHODS", "SIGNALS", "PROPERTIES"].contains(section) {
                let synopsis = unescaped(String(line.dropFirst(4)))
                guard let member = member(synopsis, kind: section, of: interface) else {
                    parsed.unreadable.append(synopsis)
                    continue
                }
                if !parsed.members.insert(member).inserted { parsed.duplicates.append(member) }
            }
        }
        return parsed
    }

    static func member(_ synopsis: String, kind section: String, of interface: String) -> DocumentedMember? {
        switch section {
        case "METHODS":
            guard let (name, inputs, outputs) = ReadmeAPITables.call(synopsis) else { return nil }
            return DocumentedMember(interface: interface, kind: "method", name: name, shape: "\(name)(\(inputs)) → (\(outputs))")
        case "SIGNALS":
            guard !synopsis.contains("→"), let (name, arguments, _) = ReadmeAPITables.call(synopsis) else { return nil }
            return DocumentedMember(interface: interface, kind: "signal", name: name, shape: "\(name)(\(arguments))")
        default:
            // `T Name [access, emits]`
            let words = synopsis.split(separator: " ", maxSplits: 2).map(String.init)
            guard words.count == 3, words[2].hasPrefix("["), words[2].hasSuffix("]") else { return nil }
            let flags = words[2].dropFirst().dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard flags.count == 2, let access = accesses[flags[0]], let emits = emitsChangedSignal[flags[1]] else { return nil }
            return DocumentedMember(interface: interface, kind: "property", name: words[1],
                                    shape: "\(words[1]): \(words[0]) \(access) \(emits)")
        }
    }

    static let accesses = ["read-only": "read", "write-only": "write", "read-write": "readwrite"]
    static let emitsChangedSignal = ["signalled": "true", "constant": "const", "not signalled": "false", "invalidated": "invalidates"]

    /// The roff a synopsis line uses: quotes around it, `\-` and `\(->`.
    static func unescaped(_ roff: String) -> String {
        var text = roff.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
        return text.replacingOccurrences(of: "\\(->", with: "→").replacingOccurrences(of: "\\-", with: "-")
    }

    /// Every `org.accessoryagent.Error.NAME` in `text`.
    static func errorNames(in text: String) -> [String] {
        var names: [String] = []
        var rest = text[...]
        while let range = rest.range(of: BusErrorNames.prefix) {
            let name = rest[range.upperBound...].prefix { $0.isLetter || $0.isNumber }
            if !name.isEmpty { names.append(BusErrorNames.prefix + name) }
            rest = rest[range.upperBound...]
        }
        return names
    }
}
