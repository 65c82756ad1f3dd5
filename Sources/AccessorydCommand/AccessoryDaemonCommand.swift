import AccessoryCore
import AccessoryDaemon
import AccessoryPlatform
import ArgumentParser
import Logging

extension LogTarget: ExpressibleByArgument {}
extension BtsnoopReplay.Speed: ExpressibleByArgument {}

public struct AccessoryDaemonCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "accessoryd",
        abstract: "Discovers Bluetooth LE and Wi-Fi accessories and hands each one to the app a person approved it for.",
        discussion: """
            Runs as a systemd service (accessoryd.service). Configuration is read from \
            \(ConfigurationSources.defaultMainFile) and then \(ConfigurationSources.defaultDropInDirectory)/*.conf \
            in name order; SIGHUP reloads it. See accessoryd(8) and accessoryd.conf(5).
            """,
        version: Version.current)

    @Option(name: .long, help: ArgumentHelp(
        "Read only this configuration file (no drop-ins).", valueName: "file"))
    var config: String?

    @Option(name: .long, help: "Where to log: auto (terminal → console, else journal), console or journal.")
    var logTarget: LogTarget = .auto

    @Option(name: .long, help: ArgumentHelp(
        "Override the configured log level (trace, debug, info, notice, warning, error, critical).",
        valueName: "level"))
    var logLevel: String?

    @Flag(name: .long, help: "List the Bluetooth controllers and Wi-Fi interfaces the kernel offers, then exit.")
    var probe = false

    @Flag(name: .long, help: "Also print every device heard, one line per update, on stdout (for checking the radios).")
    var monitor = false

    @Flag(name: .long, help: "Run on without the D-Bus API when the system bus cannot be reached or the name cannot be owned (the default with --monitor); otherwise accessoryd exits with status 69.")
    var busOptional = false

    @Option(name: .long, help: ArgumentHelp(
        "With --monitor: match what is heard against the descriptors in this file and show the matches.",
        valueName: "file"))
    var descriptors: String?

    @Option(name: .long, help: ArgumentHelp(
        "Take the Bluetooth input from this btsnoop capture (btmon -w) instead of the controllers, and exit at its end (with --serve: serve the API until stopped instead).",
        valueName: "file"))
    var replay: String?

    @Option(name: .long, help: "With --replay: recorded (the capture's own pace) or max (as fast as possible).")
    var replaySpeed: BtsnoopReplay.Speed?

    @Flag(name: .long, help: "With --replay: serve the D-Bus API as a normal run does, with the capture as the only radio (no controller or Wi-Fi interface is used), until SIGTERM or SIGINT; for apps' tests without radios (accessory-test-kit).")
    var serve = false

    @Flag(name: .long, help: "With --replay --serve: start the capture over a second after its end, so its devices stay present.")
    var replayLoop = false

    @Option(name: .long, help: ArgumentHelp(
        "Read the app manifests from this directory only, instead of \(AppManifestLoader.vendorDirectory) and \(AppManifestLoader.administratorDirectory) (to try manifests before installing them).",
        valueName: "directory"))
    var apps: String?

    @OptionGroup(title: "Bluetooth LE channels")
    var connectOptions: ConnectOptions

    @Option(name: .long, help: ArgumentHelp(
        "Join this Wi-Fi hotspot (the passphrase is read from stdin), print the result, stay joined until SIGTERM, SIGINT, the end of stdin or the loss of the link, then restore the previous network.",
        valueName: "ssid"))
    var joinHotspot: String?

    @Option(name: .long, help: ArgumentHelp("With --join-hotspot: the SSID's bytes as hex, for SSIDs that are not text.", valueName: "hex"))
    var joinHotspotHex: String?

    @Option(name: .long, help: ArgumentHelp("With --join-hotspot: the Wi-Fi interface to join with.", valueName: "interface"))
    var interface: String?

    @Option(name: .long, help: ArgumentHelp(
        "With --join-hotspot: wpa_supplicant's control directory (default /run/wpa_supplicant).", valueName: "dir"))
    var wpaControlDirectory: String?

    public mutating func validate() throws {
        if (joinHotspot != nil || joinHotspotHex != nil) != (interface != nil) {
            throw ValidationError("--join-hotspot (or --join-hotspot-hex) and --interface go together")
        }
        if joinHotspot != nil && joinHotspotHex != nil { throw ValidationError("give --join-hotspot or --join-hotspot-hex, not both") }
        if wpaControlDirectory != nil && interface == nil { throw ValidationError("--wpa-control-directory goes with --join-hotspot") }
        if replaySpeed != nil && replay == nil { throw ValidationError("--replay-speed goes with --replay") }
        if serve && replay == nil { throw ValidationError("--serve goes with --replay") }
        if replayLoop && !serve { throw ValidationError("--replay-loop goes with --replay --serve") }
        if replayLoop && replaySpeed == .max { throw ValidationError("--replay-loop replays at the recorded pace, not --replay-speed max") }
        if replay != nil && probe { throw ValidationError("--replay and --probe do not go together") }
        if descriptors != nil && !monitor { throw ValidationError("--descriptors goes with --monitor") }
        if let logLevel, Logger.Level(rawValue: logLevel.lowercased()) == nil {
            throw ValidationError("'\(logLevel)' is not a log level (trace, debug, info, notice, warning, error, critical)")
        }
    }

    public func run() throws {
        logTarget.bootstrap(identifier: Daemon.identifier)
        if logTarget.journalWantedButAbsent {
            Logger(label: Daemon.identifier).notice(
                "journald is not running (no /run/systemd/journal/socket): logging to standard error",
                metadata: ["log_target": "console"])
        }
        if connectOptions.isRequested {
            let status = connectOptions.run()
            if status != 0 { throw ExitCode(status) }
            return
        }
        if let interface {
            let ssid = joinHotspotHex.map { bytes(fromHex: $0).flatMap { SSID(bytes: $0) } } ?? joinHotspot.flatMap { SSID($0) }
            guard let ssid else { throw ValidationError("not an SSID (at most 32 bytes; hex with --join-hotspot-hex)") }
            var settings = HotspotJoinSettings()
            if let wpaControlDirectory { settings.controlDirectory = wpaControlDirectory }
            var logger = Logger(label: Daemon.identifier)
            logger.logLevel = logLevel.flatMap { Logger.Level(rawValue: $0.lowercased()) } ?? .info
            let status = HotspotJoinCommand.run(ssid: ssid, interface: interface, settings: settings, logger: logger)
            if status != 0 { throw ExitCode(status) }
            return
        }
        let sources = config.map(ConfigurationSources.explicit) ?? .system
        guard let configuration = Daemon.loadConfiguration(sources) else {
            throw ExitCode(Daemon.exitConfigurationError)
        }
        let daemon = Daemon(
            sources: sources, configuration: configuration,
            logLevelOverride: logLevel.flatMap { Logger.Level(rawValue: $0.lowercased()) },
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
                throw ExitCode(Daemon.exitConfigurationError)
            }
        }
        let status: Int32
        if let replay, !serve {
            status = daemon.replay(capturePath: replay, speed: replaySpeed ?? .recorded)
        } else {
            status = probe ? daemon.probe() : daemon.run()
        }
        if status != 0 { throw ExitCode(status) }
    }
}
