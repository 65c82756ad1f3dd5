import AccessoryCommandLine
import AccessoryCore
import AccessoryDaemon
import AccessoryPlatform
import Glibc
import Logging

/// `accessoryd`: the daemon, and its diagnostics (`--probe`, `--monitor`,
/// `--replay`, `--connect`, `--join-hotspot`).
public struct AccessoryDaemonCommand {
    public static let declaration = CommandDeclaration(
        "accessoryd",
        abstract: "Discovers Bluetooth LE and Wi-Fi accessories and hands each one to the app a person approved it for.",
        discussion: """
            Runs as a systemd service (accessoryd.service). Configuration is read from \
            \(ConfigurationSources.defaultMainFile) and then \(ConfigurationSources.defaultDropInDirectory)/*.conf \
            in name order; SIGHUP reloads it. See accessoryd(8) and accessoryd.conf(5).
            """,
        version: Version.current,
        options: [
            OptionDeclaration("config", valueName: "file", help: "Read only this configuration file (no drop-ins).", completion: .file),
            OptionDeclaration(
                "log-target", help: "Where to log: auto (terminal → console, else journal), console or journal.",
                defaultValue: LogTarget.auto.rawValue, choices: LogTarget.allCases.map(\.rawValue)),
            OptionDeclaration(
                "log-level", valueName: "level",
                help: "Override the configured log level (trace, debug, info, notice, warning, error, critical)."),
            .flag("probe", help: "List the Bluetooth controllers and Wi-Fi interfaces the kernel offers, then exit."),
            .flag("monitor", help: "Also print every device heard, one line per update, on stdout (for checking the radios)."),
            .flag("bus-optional", help: "Run on without the D-Bus API when the system bus cannot be reached or the name cannot be owned (the default with --monitor); otherwise accessoryd exits with status 69."),
            OptionDeclaration(
                "descriptors", valueName: "file",
                help: "With --monitor: match what is heard against the descriptors in this file and show the matches.",
                completion: .file),
            OptionDeclaration(
                "replay", valueName: "file",
                help: "Take the Bluetooth input from this btsnoop capture (btmon -w) instead of the controllers, and exit at its end (with --serve: serve the API until stopped instead).",
                completion: .file),
            OptionDeclaration(
                "replay-speed", help: "With --replay: recorded (the capture's own pace) or max (as fast as possible).",
                choices: BtsnoopReplay.Speed.allCases.map(\.rawValue)),
            .flag("serve", help: "With --replay: serve the D-Bus API as a normal run does, with the capture as the only radio (no controller or Wi-Fi interface is used), until SIGTERM or SIGINT; for apps' tests without radios (accessory-test-kit)."),
            .flag("replay-loop", help: "With --replay --serve: start the capture over a second after its end, so its devices stay present."),
            OptionDeclaration(
                "apps", valueName: "directory",
                help: "Read the app manifests from this directory only, instead of \(AppManifestLoader.vendorDirectory) and \(AppManifestLoader.administratorDirectory) (to try manifests before installing them).",
                completion: .directory),
        ] + ConnectOptions.options + [
            OptionDeclaration(
                "join-hotspot", valueName: "ssid",
                help: "Join this Wi-Fi hotspot (the passphrase is read from stdin), print the result, stay joined until SIGTERM, SIGINT, the end of stdin or the loss of the link, then restore the previous network."),
            OptionDeclaration("join-hotspot-hex", valueName: "hex", help: "With --join-hotspot: the SSID's bytes as hex, for SSIDs that are not text."),
            OptionDeclaration("interface", valueName: "interface", help: "With --join-hotspot: the Wi-Fi interface to join with."),
            OptionDeclaration(
                "wpa-control-directory", valueName: "dir",
                help: "With --join-hotspot: wpa_supplicant's control directory (default /run/wpa_supplicant).", completion: .directory),
        ],
        arguments: [ConnectOptions.command])

    /// What `--log-level` accepts, lowercase (any case is accepted).
    static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    var config: String?
    var logTarget: LogTarget
    var logLevel: Logger.Level?
    var probe: Bool
    var monitor: Bool
    var busOptional: Bool
    var descriptors: String?
    var replay: String?
    var replaySpeed: BtsnoopReplay.Speed?
    var serve: Bool
    var replayLoop: Bool
    var apps: String?
    var connectOptions: ConnectOptions
    /// The hotspot to join with `--join-hotspot`, and on which interface.
    var join: (ssid: SSID, interface: String)?
    var wpaControlDirectory: String?

    /// The values of a parsed command line, checked against each other.
    init(_ line: ParsedCommandLine) throws(CommandLineError) {
        config = line.value("config")
        logTarget = try line.choice("log-target", as: LogTarget.self) ?? .auto
        logLevel = try line.value("log-level") { (text: String) throws(InvalidValue) -> Logger.Level? in
            guard let level = Logger.Level(rawValue: text.lowercased()) else {
                throw InvalidValue("not a log level (\(Self.logLevels.joined(separator: ", ")))")
            }
            return level
        }
        probe = line.flag("probe")
        monitor = line.flag("monitor")
        busOptional = line.flag("bus-optional")
        descriptors = line.value("descriptors")
        replay = line.value("replay")
        replaySpeed = try line.choice("replay-speed", as: BtsnoopReplay.Speed.self)
        serve = line.flag("serve")
        replayLoop = line.flag("replay-loop")
        apps = line.value("apps")
        connectOptions = try ConnectOptions(line)
        let joinHotspot = line.value("join-hotspot")
        let joinHotspotHex = line.value("join-hotspot-hex")
        let interface = line.value("interface")
        wpaControlDirectory = line.value("wpa-control-directory")

        func require(_ holds: Bool, _ text: String) throws(CommandLineError) {
            if !holds { throw .rule(text) }
        }
        try require((joinHotspot != nil || joinHotspotHex != nil) == (interface != nil),
                 "--join-hotspot (or --join-hotspot-hex) and --interface go together")
        try require(joinHotspot == nil || joinHotspotHex == nil, "give --join-hotspot or --join-hotspot-hex, not both")
        try require(wpaControlDirectory == nil || interface != nil, "--wpa-control-directory goes with --join-hotspot")
        try require(replaySpeed == nil || replay != nil, "--replay-speed goes with --replay")
        try require(!serve || replay != nil, "--serve goes with --replay")
        try require(!replayLoop || serve, "--replay-loop goes with --replay --serve")
        try require(!replayLoop || replaySpeed != .max, "--replay-loop replays at the recorded pace, not --replay-speed max")
        try require(replay == nil || !probe, "--replay and --probe do not go together")
        try require(descriptors == nil || monitor, "--descriptors goes with --monitor")
        if let interface {
            let ssid = joinHotspotHex.map { bytes(fromHex: $0).flatMap { SSID(bytes: $0) } } ?? joinHotspot.flatMap { SSID($0) }
            guard let ssid else { throw .rule("not an SSID (at most 32 bytes; hex with --join-hotspot-hex)") }
            join = (ssid, interface)
        }
    }

    /// Parses the process's command line, runs it and exits: status 64 for a
    /// usage error (the unit does not restart on it), else the run's own.
    public static func main() -> Never {
        let path = [declaration]
        switch CommandLineResolution.resolve(Array(CommandLine.arguments.dropFirst()), root: declaration, usageStatus: exitUsage) {
        case .finish(let output, let error, let status):
            StandardOutput.write(output)
            StandardError.write(error)
            exit(status)
        case .run(_, let line):
            do throws(CommandLineError) {
                exit(try AccessoryDaemonCommand(line).run())
            } catch {
                StandardError.write(CommandLineFailure(error, path: path).message)
                exit(exitUsage)
            }
        }
    }

    static let exitUsage: Int32 = 64

    /// Runs what the command line asks for; its exit status.
    func run() -> Int32 {
        logTarget.bootstrap(identifier: Daemon.identifier)
        if logTarget.journalWantedButAbsent {
            Logger(label: Daemon.identifier).notice(
                "journald is not running (no /run/systemd/journal/socket): logging to standard error",
                metadata: ["log_target": "console"])
        }
        if connectOptions.isRequested { return connectOptions.run() }
        if let join {
            var settings = HotspotJoinSettings()
            if let wpaControlDirectory { settings.controlDirectory = wpaControlDirectory }
            var logger = Logger(label: Daemon.identifier)
            logger.logLevel = logLevel ?? .info
            return HotspotJoinCommand.run(ssid: join.ssid, interface: join.interface, settings: settings, logger: logger)
        }
        let sources = config.map(ConfigurationSources.explicit) ?? .system
        guard let configuration = Daemon.loadConfiguration(sources) else { return Daemon.exitConfigurationError }
        let daemon = Daemon(
            sources: sources, configuration: configuration, logLevelOverride: logLevel,
            appLoader: apps.map { AppCatalogLoader(vendorDirectory: $0, administratorDirectory: $0) } ?? AppCatalogLoader())
        daemon.requiresBus = !(busOptional || monitor)
        if let replay, serve {
            daemon.servedCapture = .init(path: replay, speed: replaySpeed ?? .recorded, repeats: replayLoop)
        }
        if monitor {
            // Each line as soon as the daemon is done with what it heard, even into a pipe.
            daemon.monitor = MonitorOutput()
        }
        if let descriptors {
            do {
                try daemon.addDescriptors(fromFile: descriptors)
            } catch {
                StandardError.write("accessoryd: \(error)\n")
                return Daemon.exitConfigurationError
            }
        }
        if let replay, !serve {
            return daemon.replay(capturePath: replay, speed: replaySpeed ?? .recorded)
        }
        return probe ? daemon.probe() : daemon.run()
    }
}
