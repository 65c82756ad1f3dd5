import AccessoryCommandLine
import Testing

/// `.words`: completions only the running program knows (accessoryctl's
/// request numbers and accessory ids), asked of it at completion time with
/// the hidden `--completion-words KIND`, for the argument at its place only.
@Suite struct BashWordsCompletionTests {
    static let paint = CommandDeclaration(
        "paint", abstract: "Paint a surface.",
        options: [OptionDeclaration("brush", help: "Which brush."), .flag("thick", help: "Thickly.")],
        arguments: [
            ArgumentDeclaration("colour", help: "A colour the program knows.", completion: .words("colours")),
            ArgumentDeclaration("surface", help: "What to paint."),
        ])
    static let root = CommandDeclaration("painter", abstract: "Paints.", subcommands: [paint])

    /// Runs bash with the script and `program` standing in for the command
    /// (a function of the same name, which `"${COMP_WORDS[0]}"` calls).
    func complete(_ words: [String], program: String) throws -> [String] {
        let script = BashCompletion.script(for: Self.root)
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let shell = script + "\n" + program + "\nCOMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _painter; printf '%s\\n' \"${COMPREPLY[@]}\"\n"
        return try Shell.run(["bash", "-c", shell]).split(separator: "\n").map(String.init)
    }

    static let knowsColours = """
        painter() { [[ $1 == \(BashCompletion.wordsOption) && $2 == colours && $# == 2 ]] && printf 'red\\nrose\\nblue\\n'; }
        """

    @Test func theArgumentIsCompletedWithWhatTheProgramLists() throws {
        #expect(try complete(["painter", "paint", "r"], program: Self.knowsColours) == ["red", "rose"])
        #expect(try complete(["painter", "paint", ""], program: Self.knowsColours) == ["red", "rose", "blue"])
        // Options and their values before it are not arguments.
        #expect(try complete(["painter", "paint", "--thick", "--brush", "wide", "b"], program: Self.knowsColours) == ["blue"])
    }

    @Test func onlyAtItsPlace() throws {
        #expect(try complete(["painter", "paint", "red", "r"], program: Self.knowsColours) == [])
    }

    /// The program prints nothing (accessoryd not running): nothing is offered, nothing shown.
    @Test func aSilentProgramOffersNothing() throws {
        #expect(try complete(["painter", "paint", "r"], program: "painter() { echo 'no bus' >&2; return 1; }") == [])
    }
}
