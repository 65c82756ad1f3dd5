import AccessoryWire
import Foundation
import Testing

/// The README's D-Bus API tables against the declarations in AccessoryWire,
/// member by member and both ways: every interface, every method, signal
/// and property, its kind, argument types and names, and for properties
/// access and `EmitsChangedSignal`. Nothing documented that the daemon does
/// not declare, nothing declared that the README does not document.
@Suite struct ReadmeContractTests {
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    @Test func theAPITablesAreTheDeclarations() throws {
        let documented = try ReadmeAPITables.parse(String(contentsOf: Self.readme, encoding: .utf8))
        #expect(documented.interfaces == Set(BusObjects.apiInterfaces.map(\.name)))
        expectTheDeclarations(listed: documented.members, twice: documented.duplicates,
                              unreadable: documented.unreadable, in: "the README")
    }

    @Test func theParserReadsEveryKindOfRow() throws {
        let text = """
            ## D-Bus API

            ### `org.accessoryagent.Example1` at `/x`

            | Member | |
            |---|---|
            | `Go(u request, a(ss) items) → (s result, o where)` | text |
            | `Stop()` | |
            | `Ask() → ao answers` | |
            | signal `Went(s why)` | |
            | property `Name: s`, read-only, constant | |
            | property `RSSI: i`, read-only, not signalled | |
            | property `State: s`, read-only | |
            | `Broken(` | |

            ### Who may administer

            | Who | May |
            |---|---|
            | root | all |

            ## Next
            """
        let tables = ReadmeAPITables.parse(text)
        #expect(tables.interfaces == ["org.accessoryagent.Example1"])
        #expect(tables.unreadable == ["`Broken(`"])
        #expect(tables.members.map(\.description).sorted() == [
            "org.accessoryagent.Example1 method Ask() → (ao answers)",
            "org.accessoryagent.Example1 method Go(u request, a(ss) items) → (s result, o where)",
            "org.accessoryagent.Example1 method Stop() → ()",
            "org.accessoryagent.Example1 property Name: s read const",
            "org.accessoryagent.Example1 property RSSI: i read false",
            "org.accessoryagent.Example1 property State: s read true",
            "org.accessoryagent.Example1 signal Went(s why)",
        ])
    }
}

/// A member as both the README and the declarations can spell it.
/// A document (the README's tables, the man pages) lists exactly the declared
/// members, each once: a member listed twice would hide a wrong row behind a right one.
func expectTheDeclarations(
    listed members: Set<DocumentedMember>, twice duplicates: [DocumentedMember], unreadable: [String], in document: String
) {
    let declared = ReadmeAPITables.members(of: BusObjects.apiInterfaces)
    let missing = declared.subtracting(members)
    let extra = members.subtracting(declared)
    #expect(missing.isEmpty, "declared but not in \(document): \(missing.map(\.description).sorted())")
    #expect(extra.isEmpty, "in \(document) but not declared: \(extra.map(\.description).sorted())")
    #expect(duplicates.isEmpty, "documented twice in \(document): \(duplicates.map(\.description).sorted())")
    #expect(unreadable.isEmpty, "lines of \(document) the test cannot read: \(unreadable)")
}

struct DocumentedMember: Hashable, CustomStringConvertible {
    var interface: String
    /// `method`, `signal`, `property`.
    var kind: String
    var name: String
    /// `Go(u request) → (s result)`, `Went(s why)`, `Name: s read const`.
    var shape: String

    var description: String { "\(interface) \(kind) \(shape)" }
}

/// Reads the tables of the README's "D-Bus API" section: a `### ` heading
/// naming `org.accessoryagent.…` starts an interface's members, any other
/// `### ` heading ends them; each table row's first cell is one member.
enum ReadmeAPITables {
    struct Parsed {
        var interfaces: Set<String> = []
        var members: Set<DocumentedMember> = []
        var duplicates: [DocumentedMember] = []
        var unreadable: [String] = []
    }

    static func parse(_ readme: String) -> Parsed {
        var parsed = Parsed()
        var inSection = false
        var interface: String?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("## ") {
                inSection = line == "## D-Bus API"
                interface = nil
                continue
            }
            guard inSection else { continue }
            if line.hasPrefix("### ") {
                interface = line.hasPrefix("### `org.accessoryagent.")
                    ? String(line.dropFirst(5).prefix { $0 != "`" }) : nil
                if let interface { parsed.interfaces.insert(interface) }
                continue
            }
            guard let interface, line.hasPrefix("| ") else { continue }
            let cell = line.dropFirst(2).prefix { $0 != "|" }.trimmingCharacters(in: .whitespaces)
            guard cell != "Member", !cell.hasPrefix("---") else { continue }
            guard let member = member(cell, of: interface) else {
                parsed.unreadable.append(cell)
                continue
            }
            if !parsed.members.insert(member).inserted { parsed.duplicates.append(member) }
        }
        return parsed
    }

    /// `` `Go(u a) → s b` ``, `` signal `Went(s why)` ``, `` property `Name: s`, read-only, constant ``.
    static func member(_ cell: String, of interface: String) -> DocumentedMember? {
        let parts = cell.split(separator: "`", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else { return nil }
        let (kind, code, rest) = (parts[0].trimmingCharacters(in: .whitespaces), parts[1], parts[2])
        switch kind {
        case "":
            guard rest.isEmpty, let (name, inputs, outputs) = call(code) else { return nil }
            return DocumentedMember(interface: interface, kind: "method", name: name, shape: "\(name)(\(inputs)) → (\(outputs))")
        case "signal":
            guard rest.isEmpty, let (name, arguments, outputs) = call(code), outputs.isEmpty, !code.contains("→") else { return nil }
            return DocumentedMember(interface: interface, kind: "signal", name: name, shape: "\(name)(\(arguments))")
        case "property":
            let nameAndType = code.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard nameAndType.count == 2 else { return nil }
            var words = rest.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard words.first == "read-only" else { return nil }
            words.removeFirst()
            let emits: String
            switch words {
            case []: emits = "true"
            case ["constant"]: emits = "const"
            case ["not signalled"]: emits = "false"
            default: return nil
            }
            return DocumentedMember(interface: interface, kind: "property", name: nameAndType[0],
                                    shape: "\(nameAndType[0]): \(nameAndType[1]) read \(emits)")
        default:
            return nil
        }
    }

    /// `Name(t a, t b) → (t c, t d)` or `→ t c`: the name and the argument lists, normalized.
    static func call(_ code: String) -> (String, String, String)? {
        let sides = code.components(separatedBy: " → ")
        guard sides.count <= 2, let open = sides[0].firstIndex(of: "("), sides[0].hasSuffix(")") else { return nil }
        let name = String(sides[0][..<open])
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
        let inputs = String(sides[0][sides[0].index(after: open)..<sides[0].index(before: sides[0].endIndex)])
        var outputs = sides.count == 2 ? sides[1] : ""
        if outputs.hasPrefix("(") && outputs.hasSuffix(")") && outputs.contains(",") { outputs = String(outputs.dropFirst().dropLast()) }
        return (name, inputs, outputs)
    }

    /// The same members, from the declarations.
    static func members(of interfaces: [BusInterface]) -> Set<DocumentedMember> {
        func list(_ arguments: [BusArgument]) -> String {
            arguments.map { "\($0.type.signature)" + ($0.name.map { " \($0)" } ?? "") }.joined(separator: ", ")
        }
        var members: Set<DocumentedMember> = []
        for interface in interfaces {
            for method in interface.methods {
                members.insert(DocumentedMember(interface: interface.name, kind: "method", name: method.name,
                                                shape: "\(method.name)(\(list(method.inputs))) → (\(list(method.outputs)))"))
            }
            for signal in interface.signals {
                members.insert(DocumentedMember(interface: interface.name, kind: "signal", name: signal.name,
                                                shape: "\(signal.name)(\(list(signal.arguments)))"))
            }
            for property in interface.properties {
                members.insert(DocumentedMember(
                    interface: interface.name, kind: "property", name: property.name,
                    shape: "\(property.name): \(property.type) \(property.access.rawValue) \(property.emitsChangedSignal.rawValue)"))
            }
        }
        return members
    }
}
