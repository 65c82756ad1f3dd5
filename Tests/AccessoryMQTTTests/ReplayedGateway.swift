import AccessoryCodecs
import Foundation
import Glibc
import TestSupport

/// One gateway as the test kit makes it: a private dbus-daemon and the real
/// accessoryd on it, its Bluetooth input replayed in a loop from the lab's
/// capture (a sensor "Lab Sensor", 00:AA:01:01:00:01, service 180F), its
/// grants in a scratch directory, and the bridge's manifest (the test's user).
/// The lab's virtual controller reports no RSSI (127); each gateway's copy of
/// the capture says `rssi` instead, as a real controller near the sensor would.
final class ReplayedGateway {
    static let buildDirectory = URL(fileURLWithPath: BridgeProcess.executable).deletingLastPathComponent()
    static let capture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../packaging/test-kit/lab-sensor.btsnoop").standardized.path

    let bus: PrivateBus
    let scratch: ScratchDirectory
    private var daemon: Process

    init(rssi: Int8 = -60) throws {
        bus = try PrivateBus()
        scratch = try ScratchDirectory("mqtt-gateway")
        for directory in ["apps", "state"] {
            try FileManager.default.createDirectory(atPath: scratch.path(directory), withIntermediateDirectories: true)
        }
        try """
            [App]
            Name=accessory-mqtt
            User=\(ProcessInfo.processInfo.userName)
            Supports=Bluetooth

            [Bluetooth]
            ServiceUUIDs=180F
            Names=Lab Sensor

            """.write(toFile: scratch.path("apps/accessory-mqtt.conf"), atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: scratch.path("accessoryd.conf"), contents: nil)
        try Data(Self.capture(rssi: rssi)).write(to: URL(fileURLWithPath: scratch.path("capture.btsnoop")))
        // accessoryctl is the same multi-call binary, called by that name.
        try FileManager.default.createSymbolicLink(
            atPath: scratch.path("accessoryctl"), withDestinationPath: Self.buildDirectory.appendingPathComponent("accessoryd").path)
        daemon = try Self.startDaemon(scratch: scratch, bus: bus)
        try waitForAccessoryd()
    }

    /// accessoryd on the bus, its grants in the scratch directory's state.
    private static func startDaemon(scratch: ScratchDirectory, bus: PrivateBus) throws -> Process {
        let daemon = Process()
        daemon.executableURL = buildDirectory.appendingPathComponent("accessoryd")
        daemon.arguments = ["--replay", scratch.path("capture.btsnoop"), "--serve", "--replay-loop", "--apps", scratch.path("apps"),
                            "--config", scratch.path("accessoryd.conf"), "--log-target=console"]
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
        environment["STATE_DIRECTORY"] = scratch.path("state")
        environment["NOTIFY_SOCKET"] = nil
        daemon.environment = environment
        if !FileManager.default.fileExists(atPath: scratch.path("accessoryd.log")) {
            _ = FileManager.default.createFile(atPath: scratch.path("accessoryd.log"), contents: nil)
        }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.path("accessoryd.log")))
        try log.seekToEnd()
        daemon.standardOutput = log
        daemon.standardError = log
        try daemon.run()
        return daemon
    }

    private func waitForAccessoryd() throws {
        let ready = try run("""
            for _ in $(seq 300); do
                busctl --address="$BUS" call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus NameHasOwner s org.accessoryagent | grep -q true && exit 0
                sleep 0.1
            done
            exit 1
            """)
        guard ready.status == 0 else { throw BrokerError("accessoryd did not come up: \(accessorydLog)") }
    }

    /// Stops accessoryd (SIGTERM, as systemctl restart does) and starts it again on the same bus and grants.
    func restartAccessoryd() throws {
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        daemon = try Self.startDaemon(scratch: scratch, bus: bus)
        try waitForAccessoryd()
    }

    /// The lab's capture with `rssi` in its LE Advertising Reports (one report each, RSSI last).
    static func capture(rssi: Int8) throws -> [UInt8] {
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: capture)))
        let records = try BtsnoopReader.records(in: original).map { record in
            var record = record
            if record.opcode == .eventPacket, record.packet.count > 4, record.packet[0] == 0x3E, record.packet[2] == 0x02,
               record.packet[3] == 1, record.packet.last == 0x7F {
                record.packet[record.packet.count - 1] = UInt8(bitPattern: rssi)
            }
            return record
        }
        return try BtsnoopWriter(datalink: .linuxMonitor).file(records)
    }

    deinit {
        if daemon.isRunning {
            kill(daemon.processIdentifier, SIGTERM)
            daemon.waitUntilExit()
        }
    }

    var accessorydLog: String { (try? String(contentsOfFile: scratch.path("accessoryd.log"), encoding: .utf8)) ?? "" }

    /// A shell script with BUS and ACCESSORYCTL set; its status and output.
    @discardableResult
    func run(_ script: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-euc", script]
        var environment = ProcessInfo.processInfo.environment
        environment["BUS"] = bus.address
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
        environment["ACCESSORYCTL"] = scratch.path("accessoryctl")
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// As the bridge's app (the same user): a persistent session shows a picker
    /// for the capture's sensor, and waits until the sensor is its candidate:
    /// accessoryd hears it. Returns the session's path.
    func pickerWithTheSensorAsCandidate() throws -> String {
        let result = try run("""
            session=$(busctl --address="$BUS" call org.accessoryagent /org/accessoryagent org.accessoryagent.Manager1 OpenPersistentSession | cut -d'"' -f2)
            busctl --address="$BUS" call org.accessoryagent "$session" org.accessoryagent.Session1 Activate >/dev/null
            busctl --address="$BUS" call org.accessoryagent "$session" org.accessoryagent.Session1 ShowPicker \\
                'a(ssa{ss}asas)a{ss}' 1 "Sensor" "" 2 ServiceUUID 180F NameSubstring "Lab Sensor" 0 0 1 DiscoveryTimeout long >/dev/null
            for _ in $(seq 600); do
                "$ACCESSORYCTL" requests 2>/dev/null | grep -q "Lab Sensor" && { echo "$session"; exit 0; }
                sleep 0.1
            done
            echo "the sensor never became a candidate"; "$ACCESSORYCTL" requests; exit 1
            """)
        guard result.status == 0 else { throw BrokerError("picker: \(result.output)\n\(accessorydLog)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The administrator approves the sensor for the bridge; its accessory id.
    func approveTheSensor() throws -> String {
        _ = try pickerWithTheSensorAsCandidate()
        let result = try run("""
            "$ACCESSORYCTL" approve 1 1 >/dev/null
            busctl --address="$BUS" call org.accessoryagent /org/accessoryagent org.accessoryagent.Admin1 ListAccessories
            """)
        // a(sssssbi) 1 "ID" "accessory-mqtt" "Lab Sensor" "authorized" "…" true 0
        let fields = result.output.split(separator: "\"")
        guard result.status == 0, fields.count > 1, fields[1].count == 16 else {
            throw BrokerError("approve: \(result.output)\n\(accessorydLog)")
        }
        return String(fields[1])
    }

    /// The administrator removes the grant.
    func removeAccessory(_ id: String) throws {
        let result = try run("""
            busctl --address="$BUS" call org.accessoryagent /org/accessoryagent org.accessoryagent.Admin1 RemoveAccessory s \(id)
            """)
        guard result.status == 0 else { throw BrokerError("remove: \(result.output)") }
    }
}
