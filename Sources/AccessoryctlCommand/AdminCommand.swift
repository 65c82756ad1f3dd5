import AccessoryPlatform
import ArgumentParser

/// The option every command that talks to accessoryd has.
struct BusOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The D-Bus bus to reach accessoryd on (default: the system bus).", valueName: "address"))
    var busAddress: String?
}

/// A command that talks to accessoryd through Admin1. Its failures are
/// printed as `accessoryctl: COMMAND: reason` on stderr, with exit status 1.
protocol AdminCommand: ParsableCommand {
    var bus: BusOptions { get }
    func run(_ client: AdminClient) throws(AdminError)
}

extension AdminCommand {
    func run() throws {
        do throws(AdminError) {
            try run(try AdminClient(busAddress: bus.busAddress))
        } catch {
            StandardError.write("accessoryctl: \(Self.configuration.commandName ?? "?"): \(error)\n")
            throw ExitCode.failure
        }
    }
}
