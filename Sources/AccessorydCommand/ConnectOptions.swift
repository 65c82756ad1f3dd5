import AccessoryCommandLine
import AccessoryCore
import AccessoryDaemon
import AccessoryPlatform

/// `--connect`: open Bluetooth LE channels through the channel broker and
/// hand them to a command (see accessoryd(8)).
struct ConnectOptions {
    static let group = "Bluetooth LE channels"

    static let options: [OptionDeclaration] = [
        OptionDeclaration(
            "connect", kind: .repeatedValue, valueName: "address[/random]",
            help: "Open an L2CAP LE channel to this peer (repeatable), print the outcome, and run the command after -- with the sockets as fd 3, 4, …",
            group: group),
        OptionDeclaration("controller", valueName: "hciN", help: "With --connect: the controller to connect from (default: the first that is up).", group: group),
        OptionDeclaration("psm", valueName: "psm", help: "With --connect: a connection-oriented channel on this LE PSM instead of the ATT channel.", group: group),
        OptionDeclaration("connection-limit", valueName: "n", help: "With --connect: peers per controller (default \(ChannelBroker.defaultConnectionLimit)).", group: group),
        OptionDeclaration("connect-timeout", valueName: "seconds", help: "With --connect: seconds to wait for each connection (default 10).", group: group),
    ]

    static let command = ArgumentDeclaration(
        "command", kind: .afterTerminator, help: "With --connect: the command to run with the sockets.")

    var peers: [BluetoothDeviceIdentifier]
    var controller: String?
    var psm: UInt16?
    var connectionLimit: Int?
    var connectTimeout: Int?
    var command: [String]

    var isRequested: Bool { !peers.isEmpty }

    init(_ line: ParsedCommandLine) throws(CommandLineError) {
        let peerTexts = line.values("connect")
        controller = line.value("controller")
        psm = try line.value("psm") { UInt16($0) }
        connectionLimit = try line.value("connection-limit") { Int($0) }
        connectTimeout = try line.value("connect-timeout") { Int($0) }
        command = line.arguments("command")
        if peerTexts.isEmpty && (controller != nil || psm != nil || connectionLimit != nil || connectTimeout != nil || !command.isEmpty) {
            throw .rule("--controller, --psm, --connection-limit, --connect-timeout and a command go with --connect")
        }
        peers = []
        for peer in peerTexts {
            guard let identifier = BluetoothDeviceIdentifier(parsing: peer) else {
                throw .rule("'\(peer)' is not a Bluetooth address (AA:BB:CC:DD:EE:FF or AA:BB:CC:DD:EE:FF/random)")
            }
            peers.append(identifier)
        }
        if let connectionLimit, connectionLimit < 1 { throw .rule("--connection-limit must be at least 1") }
        if let connectTimeout, connectTimeout < 1 { throw .rule("--connect-timeout must be at least 1") }
        if psm == 0 { throw .rule("--psm must not be 0") }
    }

    /// Runs the diagnostic; its exit status.
    func run() -> Int32 {
        ChannelDiagnostic(
            peers: peers, controller: controller,
            kind: psm.map { .psm($0) } ?? .attribute,
            connectionLimit: connectionLimit ?? ChannelBroker.defaultConnectionLimit,
            connectTimeout: connectTimeout.map { .seconds($0) } ?? ChannelBroker.defaultConnectTimeout,
            command: command
        ).run()
    }
}
