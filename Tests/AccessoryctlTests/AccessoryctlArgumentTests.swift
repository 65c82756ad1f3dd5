import Foundation
import Testing

/// accessoryctl's command line: help for every command, and usage errors
/// that name what was wrong, with exit status 1 (never 64).
@Suite struct AccessoryctlArgumentTests {
    static let commands = ["requests", "approve", "deny", "pick", "accessories", "remove", "rename", "allow", "disallow"]

    @Test(arguments: commands) func everyCommandHasHelpAndABusOption(_ command: String) throws {
        let result = try AccessoryctlProcessTests.runAlone([command, "--help"])
        #expect(result.status == 0)
        #expect(result.out.contains("USAGE: accessoryctl \(command)"))
        #expect(result.out.contains("--bus-address <address>"))
    }

    @Test func theOverviewListsEveryCommand() throws {
        let result = try AccessoryctlProcessTests.runAlone(["--help"])
        #expect(result.status == 0)
        for command in Self.commands + ["check-manifests", "check-descriptors"] {
            #expect(result.out.contains("\n  \(command) "), "\(command) missing")
        }
    }

    @Test(arguments: [
        (["approve", "three", "1"], "The value 'three' is invalid for '<request>'"),
        (["approve", "3"], "Missing expected argument '<candidate>'"),
        (["approve", "3", "1", "--name", " "], "--name needs a name that is not empty"),
        (["deny", "99999999999"], "The value '99999999999' is invalid for '<request>'"),
        (["rename", "00000000000000a1", ""], "the new name is empty"),
        (["remove"], "Missing expected argument '<id>'"),
        (["allow", "--app", "acme"], "Missing expected argument '--for <duration>'"),
        (["allow", "--app", "acme", "--for", "10 fortnights"], "The value '10 fortnights' is invalid for '--for <duration>': not a time span"),
        (["allow", "--app", "acme", "--for", "2d"], "'2d' is invalid"),
        (["allow", "--app", "acme", "--for", "0s"], "an approval window lasts at least 1s"),
        (["allow", "--app", "", "--for", "1m"], "--app needs an app's name"),
        (["disallow"], "Missing expected argument '--app <app>'"),
        (["pick", "--interval", "soon"], "--interval needs a time span such as 2s or 500ms"),
        (["approve", "1", "1", "--colour", "red"], "Unknown option '--colour'"),
        (["frobnicate"], "Unexpected argument 'frobnicate'"),
    ]) func aUsageErrorNamesWhatWasWrong(_ arguments: [String], _ expected: String) throws {
        let result = try AccessoryctlProcessTests.runAlone(arguments)
        #expect(result.status == 1)
        #expect(result.out == "")
        #expect(result.err.contains(expected), "\(result.err)")
    }
}
