import AccessoryCommandLine
import Testing

/// The parser's rules, one by one, on a sample declaration.
@Suite struct ParserRuleTests {
    @Test func optionsTakeTheirValueFromTheNextWordOrAfterAnEqualsSign() throws {
        let line = try #require(Sample.values(["send", "--to", "ada", "--via=wire", "hello", "--urgent"]))
        #expect(line.command.name == "send")
        #expect(line.value("to") == "ada")
        #expect(line.value("via") == "wire")
        #expect(line.flag("urgent"))
        #expect(!line.flag("copy"))
        #expect(line.argument("subject") == "hello")
        #expect(line.argument("body") == nil)
        // An empty value is a value.
        #expect(Sample.values(["send", "--to", "", "hi"])?.value("to") == "")
        #expect(Sample.values(["send", "--to=", "hi"])?.value("to") == "")
    }

    @Test func anUnknownOptionIsNamed() {
        #expect(Sample.error(["send", "--to", "ada", "hi", "--colour", "red"]) == .unknownOption("--colour"))
        #expect(Sample.error(["send", "--colour=red"]) == .unknownOption("--colour"))
        #expect(Sample.error(["send", "-x"]) == .unknownOption("-x"))
        #expect(Sample.error(["--to", "ada"]) == .unknownOption("--to"), "a subcommand's option is not the root's")
        #expect(CommandLineError.unknownOption("--colour").description == "Unknown option '--colour'")
    }

    @Test func aMissingValueNamesTheOptionAndItsValue() {
        #expect(Sample.error(["send", "hi", "--to"]) == .missingValue(option: "--to <name>"))
        // A word starting with a dash is not taken as a value: it goes with `=`.
        #expect(Sample.error(["send", "hi", "--to", "--urgent"]) == .missingValue(option: "--to <name>"))
        #expect(Sample.values(["send", "hi", "--to=-ada"])?.value("to") == "-ada")
        #expect(CommandLineError.missingValue(option: "--to <name>").description == "Missing value for '--to <name>'")
    }

    @Test func aRequiredOptionOrArgumentLeftOutIsNamed() {
        #expect(Sample.error(["send", "hi"]) == .missingArgument("--to <name>"))
        #expect(Sample.error(["send", "--to", "ada"]) == .missingArgument("<subject>"))
        #expect(CommandLineError.missingArgument("<subject>").description == "Missing expected argument '<subject>'")
    }

    @Test func aSingleValuedOptionMayBeGivenOnceARepeatableOneAndFlagsMoreOften() throws {
        #expect(Sample.error(["send", "hi", "--to", "ada", "--to=bob"]) == .repeatedOption(option: "--to <name>"))
        #expect(CommandLineError.repeatedOption(option: "--to <name>").description
                == "The option '--to <name>' may be given only once")
        let line = try #require(Sample.values(["send", "hi", "--to", "ada", "--copy", "bob", "--copy=cy", "--urgent", "--urgent"]))
        #expect(line.values("copy") == ["bob", "cy"])
        #expect(line.flag("urgent"))
    }

    @Test func aFlagTakesNoValue() {
        #expect(Sample.error(["send", "hi", "--to", "ada", "--urgent=yes"]) == .flagWithValue(flag: "--urgent"))
    }

    @Test func extraArgumentsAndUnknownSubcommandsAreUnexpected() {
        #expect(Sample.error(["send", "--to", "ada", "hi", "text", "more"]) == .unexpectedArgument("more"))
        #expect(Sample.error(["frobnicate"]) == .unexpectedArgument("frobnicate"))
        #expect(CommandLineError.unexpectedArgument("more").description == "Unexpected argument 'more'")
    }

    @Test func doubleDashEndsTheOptions() throws {
        // After `--`, words that look like options are arguments.
        let send = try #require(Sample.values(["send", "--to", "ada", "--", "--urgent", "-h"]))
        #expect(send.argument("subject") == "--urgent")
        #expect(send.argument("body") == "-h")
        #expect(!send.flag("urgent"))
        // An argument declared `afterTerminator` takes them all, as they are.
        let run = try #require(Sample.values(["run", "--times", "2", "--", "ls", "--help", "-l", "--"]))
        #expect(run.value("times") == "2")
        #expect(run.arguments("command") == ["ls", "--help", "-l", "--"])
        #expect(Sample.values(["run"])?.arguments("command") == [])
        // Without `--`, a word is no part of that command.
        #expect(Sample.error(["run", "ls"]) == .unexpectedArgument("ls"))
    }

    @Test func helpIsForTheCommandItFollows() {
        func helpPath(_ words: [String]) -> [String]? {
            guard case .success(.help(let path)) = Sample.parse(words) else { return nil }
            return path.map(\.name)
        }
        #expect(helpPath(["--help"]) == ["mailer"])
        #expect(helpPath(["-h"]) == ["mailer"])
        #expect(helpPath(["send", "--help"]) == ["mailer", "send"])
        #expect(helpPath(["send", "--to", "ada", "-h"]) == ["mailer", "send"], "help wins over a missing argument")
        #expect(helpPath(["help", "send"]) == ["mailer", "send"])
        #expect(helpPath(["help"]) == ["mailer"])
        #expect(helpPath([]) == ["mailer"], "a command that only groups others shows its help")
        #expect(Sample.error(["help", "nothing"]) == .unexpectedArgument("nothing"))
        #expect(helpPath(["send", "--to", "ada", "--", "--help"]) == nil, "after -- it is an argument")
    }

    @Test func versionBelongsToTheRoot() {
        guard case .success(.version(let version)) = Sample.parse(["--version"]) else {
            Issue.record("--version is not answered")
            return
        }
        #expect(version == "1.2.3")
        #expect(Sample.error(["send", "--version"]) == .unknownOption("--version"))
        #expect(Sample.error(["--version=2"]) == .flagWithValue(flag: "--version"))
    }

    @Test func convertedValuesNameWhatDidNotFit() throws {
        let line = try #require(Sample.values(["send", "--to", "ada", "x", "--via", "pigeon"]))
        #expect(throws: CommandLineError.invalidValue(value: "x", target: "<subject>", reason: nil)) {
            try line.argument("subject") { Int($0) }
        }
        #expect(throws: CommandLineError.invalidValue(value: "pigeon", target: "--via <via>", reason: "choose post, wire")) {
            try line.choice("via", as: Route.self)
        }
        #expect(throws: CommandLineError.invalidValue(value: "ada", target: "--to <name>", reason: "too short")) {
            try line.value("to") { (text: String) throws(InvalidValue) -> String in throw InvalidValue("too short") }
        }
        #expect(CommandLineError.invalidValue(value: "x", target: "<subject>", reason: "a number").description
                == "The value 'x' is invalid for '<subject>': a number")
        let good = try #require(Sample.values(["send", "--to", "ada", "7", "--via", "wire"]))
        #expect(try good.argument("subject") { Int($0) } == 7)
        #expect(try good.choice("via", as: Route.self) == .wire)
        #expect(try good.value("copy") { Int($0) } == nil, "an option not given converts to nil")
    }

    enum Route: String { case post, wire }

    @Test func aFailureCarriesTheUsageOfItsCommand() {
        guard case .failure(let failure) = Sample.parse(["send", "hi"]) else {
            Issue.record("no failure")
            return
        }
        #expect(failure.path.map(\.name) == ["mailer", "send"])
        #expect(failure.message == """
            Error: Missing expected argument '--to <name>'
            Usage: mailer send <subject> [<body>] --to <name> [--via <via>]
                               [--copy <name> ...] [--urgent] [--attach <file>]
              See 'mailer send --help' for more information.

            """)
    }
}
