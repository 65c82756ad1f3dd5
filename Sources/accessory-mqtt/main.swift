// accessory-mqtt: publishes the accessories approved for it to an MQTT
// broker, with Home Assistant discovery. See accessory-mqtt(8).
import AccessoryMQTT
import AccessoryPlatform
import Glibc

let usage = """
    usage: accessory-mqtt [--config FILE] [--bus-address ADDRESS] [--check]

      --config FILE          the configuration (default: \(BridgeConfiguration.defaultPath))
      --bus-address ADDRESS  accessoryd's bus (default: the system bus)
      --check                read the configuration and the credentials, print what they say, exit
    """

var configPath = BridgeConfiguration.defaultPath
var busAddress: String?
var checkOnly = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--config" where !arguments.isEmpty: configPath = arguments.removeFirst()
    case "--bus-address" where !arguments.isEmpty: busAddress = arguments.removeFirst()
    case "--check": checkOnly = true
    case "-h", "--help":
        StandardOutput.write(usage + "\n")
        exit(0)
    default:
        StandardError.write("accessory-mqtt: unknown or incomplete argument '\(argument)'\n\(usage)\n")
        exit(64)
    }
}

/// The configuration and the credentials it names, or the reason (file, line, key) they are refused.
func loadConfiguration(_ configPath: String) -> (BridgeConfiguration, BrokerCredentials?) {
    var name = [CChar](repeating: 0, count: 256)
    let host = gethostname(&name, name.count) == 0 ? String(cString: name) : ""
    do {
        guard let bytes = try FileSystem.readFileIfPresent(configPath, limit: 64 << 10) else {
            log("\(configPath): no such file")
            exit(78)
        }
        let configuration = try BridgeConfiguration(parsing: bytes, source: configPath, defaultGateway: host)
        guard let path = configuration.credentialsFile else { return (configuration, nil) }
        guard let secret = try FileSystem.readFileIfPresent(path, limit: 4096) else {
            log("\(path): no such file (CredentialsFile= in \(configPath))")
            exit(78)
        }
        return (configuration, try BrokerCredentials(parsing: secret, source: path))
    } catch {
        log("\(error)")
        exit(78)
    }
}

let (configuration, credentials) = loadConfiguration(configPath)
if checkOnly {
    StandardOutput.write("""
        broker \(configuration.host):\(configuration.effectivePort)\(configuration.caFile == nil ? "" : " TLS") \
        client-id \(configuration.effectiveClientID)\(credentials.map { " \($0.redacted)" } ?? "")
        gateway \(configuration.gateway) topics \(TopicLayout(configuration).base)/…

        """)
    exit(0)
}

let inbox: Inbox
let bridge: Bridge
do {
    inbox = try Inbox()
    // Signals are blocked (for the loop's signalfd) before any thread starts.
    bridge = try Bridge(configuration: configuration, credentials: credentials, inbox: inbox)
} catch {
    log("\(error)")
    exit(1)
}
// The session's tasks run on Swift's cooperative threads; this thread runs the loop.
let follower = SessionFollower(busAddress: busAddress, inbox: inbox)
Task.detached { await follower.run() }
exit(bridge.run())
