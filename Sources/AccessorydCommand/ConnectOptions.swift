import AccessoryCore
import AccessoryDaemon
import AccessoryPlatform
import ArgumentParser

/// `--connect`: open Bluetooth LE channels through the channel broker and
/// hand them to a command (see accessoryd(8)).
struct ConnectOptions: ParsableArguments {
    @Option(name: .customLong("connect"), help: ArgumentHelp(
        "Open an L2CAP LE channel to this peer (repeatable), print the outcome, and run the command after -- with the sockets as fd 3, 4, …",
        valueName: "address[/random]"))
    var peers: [String] = []

    @Option(name: .long, help: ArgumentHelp("With --connect: the controller to connect from (default: the first that is up).", valueName: "hciN"))
    var controller: String?

    @Option(name: .long, help: ArgumentHelp("With --connect: a connection-oriented channel on this LE PSM instead of the ATT channel.", valueName: "psm"))
    var psm: UInt16?

    @Option(name: .long, help: ArgumentHelp("With --connect: peers per controller (default \(ChannelBroker.defaultConnectionLimit)).", valueName: "n"))
    var connectionLimit: Int?

    @Option(name: .long, help: ArgumentHelp("With --connect: seconds to wait for each connection (default 10).", valueName: "seconds"))
    var connectTimeout: Int?

    @Argument(parsing: .postTerminator, help: ArgumentHelp("With --connect: the command to run with the sockets.", valueName: "command"))
    var command: [String] = []

    var isRequested: Bool { !peers.isEmpty }

    func validate() throws {
        if peers.isEmpty && (controller != nil || psm != nil || connectionLimit != nil || connectTimeout != nil || !command.isEmpty) {
            throw ValidationError("--controller, --psm, --connection-limit, --connect-timeout and a command go with --connect")
        }
        for peer in peers where BluetoothDeviceIdentifier(parsing: peer) == nil {
            throw ValidationError("'\(peer)' is not a Bluetooth address (AA:BB:CC:DD:EE:FF or AA:BB:CC:DD:EE:FF/random)")
        }
        if let connectionLimit, connectionLimit < 1 { throw ValidationError("--connection-limit must be at least 1") }
        if let connectTimeout, connectTimeout < 1 { throw ValidationError("--connect-timeout must be at least 1") }
        if psm == 0 { throw ValidationError("--psm must not be 0") }
    }

    /// Runs the diagnostic; its exit status.
    func run() -> Int32 {
        ChannelDiagnostic(
            peers: peers.compactMap { BluetoothDeviceIdentifier(parsing: $0) }, controller: controller,
            kind: psm.map { .psm($0) } ?? .attribute,
            connectionLimit: connectionLimit ?? ChannelBroker.defaultConnectionLimit,
            connectTimeout: connectTimeout.map { .seconds($0) } ?? ChannelBroker.defaultConnectTimeout,
            command: command
        ).run()
    }
}
