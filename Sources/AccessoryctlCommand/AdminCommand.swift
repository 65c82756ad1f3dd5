import AccessoryCommandLine
import AccessoryPlatform

/// The option every command that talks to accessoryd has.
enum BusOptions {
    static let busAddress = OptionDeclaration(
        "bus-address", valueName: "address", help: "The D-Bus bus to reach accessoryd on (default: the system bus).")
}

/// A command that talks to accessoryd through Admin1. Its failures are
/// printed as `accessoryctl: COMMAND: reason` on stderr, with exit status 1.
protocol AdminCommand: ControlCommand {
    var busAddress: String? { get }
    func run(_ client: AdminClient) throws(AdminError)
}

extension AdminCommand {
    func run() -> Int32 {
        do throws(AdminError) {
            try run(try AdminClient(busAddress: busAddress))
            return 0
        } catch {
            StandardError.write("accessoryctl: \(Self.declaration.name): \(error)\n")
            return 1
        }
    }
}
