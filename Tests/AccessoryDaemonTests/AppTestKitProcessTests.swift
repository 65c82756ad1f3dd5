import Foundation
import Testing
import TestSupport

/// The acceptance of issue 15's test kit: `accessory-test-kit`, as an app's
/// CI runs it, on this machine (no radio is used even where there is one):
/// a picker flow with candidates from the replayed capture, from the app's
/// side of the bus (busctl) and the administrator's (accessoryctl), through
/// the kit's private bus only.
@Suite struct AppTestKitProcessTests {
    static let kit = PackagingTests.packaging.appendingPathComponent("libexec/accessory-test-kit").path
    static let capture = PackagingTests.packaging.appendingPathComponent("test-kit/lab-sensor.btsnoop").path

    let scratch: ScratchDirectory

    init() throws {
        scratch = try ScratchDirectory("test-kit")
        try FileManager.default.createDirectory(atPath: scratch.path("apps"), withIntermediateDirectories: true)
        // The capture's sensor: "Lab Sensor", service 180F. The test runs as the app.
        try """
            [App]
            Name=kit-app
            User=\(ProcessInfo.processInfo.userName)
            Supports=Bluetooth

            [Bluetooth]
            ServiceUUIDs=180F
            Names=Lab Sensor

            """.write(toFile: scratch.path("apps/kit-app.conf"), atomically: true, encoding: .utf8)
    }

    /// Runs the kit with `arguments` and the flow script `flow`; its status and everything printed.
    func runKit(_ arguments: [String], flow: String) throws -> (status: Int32, output: String) {
        try flow.write(toFile: scratch.path("flow.sh"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.kit)
        process.arguments = ["--accessoryd", DaemonProcessTests.daemonPath, "--capture", Self.capture,
                             "--apps", scratch.path("apps")] + arguments + ["--", "/bin/sh", "-eu", scratch.path("flow.sh")]
        var environment = ProcessInfo.processInfo.environment
        // Only the kit's bus may be reached: the machine's is not there for it.
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// The app's side, as in the README's "By hand with busctl": a persistent
    /// session and a picker for the capture's sensor.
    static let openPicker = """
        session=$(busctl call org.accessoryagent /org/accessoryagent org.accessoryagent.Manager1 OpenPersistentSession | cut -d'"' -f2)
        echo "session: $session"
        busctl call org.accessoryagent "$session" org.accessoryagent.Session1 Activate
        busctl call org.accessoryagent "$session" org.accessoryagent.Session1 ShowPicker \\
            'a(ssa{ss}asas)a{ss}' 1 "Kit sensor" "" 2 ServiceUUID 180F NameSubstring "Lab Sensor" 0 0 1 DiscoveryTimeout long

        """

    /// Waits (bounded, so a broken kit fails rather than hangs) until `$1` succeeds.
    static let eventually = """
        eventually() {
            for _ in $(seq 600); do
                if eval "$1"; then return 0; fi
                sleep 0.1
            done
            echo "never: $1"; return 1
        }

        """

    @Test func pickerGetsTheCapturesSensorAndApprovalAddsTheAccessory() throws {
        let flow = Self.eventually + Self.openPicker + """
            eventually '"$ACCESSORYCTL" requests | grep -q "Lab Sensor"'
            "$ACCESSORYCTL" requests
            "$ACCESSORYCTL" approve 1 1
            events=$(busctl call org.accessoryagent "$session" org.accessoryagent.Session1 TakeEvents)
            echo "events: $events"
            accessory=$(echo "$events" | grep -o '/org/accessoryagent/accessory/[0-9a-f]*')
            busctl get-property org.accessoryagent "$accessory" org.accessoryagent.Accessory1 DisplayName
            # No radio: a channel is refused at once, as without a controller.
            if channel=$(busctl call org.accessoryagent "$session" org.accessoryagent.Session1 OpenBluetoothChannel oq "$accessory" 0 2>&1); then
                echo "channel: opened"
            else
                echo "channel: $channel"
            fi

            """
        let result = try runKit([], flow: flow)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("export DBUS_SYSTEM_BUS_ADDRESS='unix:path="))
        // The candidate came from the capture: its name and address.
        #expect(result.output.contains("Lab Sensor  bluetooth  00:AA:01:01:00:01/public"), "\(result.output)")
        #expect(result.output.contains("approved: accessory "), "\(result.output)")
        #expect(result.output.contains("\"accessoryAdded\" 1 \"Accessory\" \"/org/accessoryagent/accessory/"), "\(result.output)")
        #expect(result.output.contains("s \"Lab Sensor\""), "\(result.output)")
        #expect(result.output.contains("channel: Call failed: no Bluetooth LE controller is up"), "\(result.output)")
        print(result.output)
    }

    /// `--approve-all`: the approval window approves the first matching
    /// candidate without anyone at accessoryctl.
    @Test func approveAllApprovesTheCapturesSensor() throws {
        let flow = Self.eventually + Self.openPicker + """
            taken=""
            eventually 'taken="$taken $(busctl call org.accessoryagent "$session" org.accessoryagent.Session1 TakeEvents)"; echo "$taken" | grep -q accessoryAdded'
            echo "events: $taken"

            """
        let result = try runKit(["--approve-all"], flow: flow)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("approval window open for kit-app"), "\(result.output)")
        #expect(result.output.contains("\"accessoryAdded\" 1 \"Accessory\" \"/org/accessoryagent/accessory/"), "\(result.output)")
    }

    /// The command's status is the kit's: a failing app test fails the CI job.
    @Test func theTestCommandsFailureIsTheKits() throws {
        let result = try runKit([], flow: "exit 3\n")
        #expect(result.status == 3, "\(result.output)")
    }

    /// The package installs the kit and its capture where the kit and accessoryd(8) say.
    @Test func thePackageInstallsTheKit() throws {
        let install = try PackagingTests.text("debian/accessoryd.install").split(separator: "\n")
        #expect(install.contains("packaging/libexec/accessory-test-kit usr/libexec/accessoryd"))
        #expect(install.contains("packaging/test-kit/lab-sensor.btsnoop usr/share/accessoryd/test-kit"))
        let kit = try String(contentsOfFile: Self.kit, encoding: .utf8)
        #expect(kit.contains("default_capture=/usr/share/accessoryd/test-kit/lab-sensor.btsnoop"))
        #expect(kit.contains("default_accessoryd=/usr/sbin/accessoryd"))
        let manual = try PackagingTests.text("man/accessoryd.8")
        #expect(manual.contains("/usr/libexec/accessoryd/accessory\\-test\\-kit"))
        #expect(manual.contains("/usr/share/accessoryd/test\\-kit/lab\\-sensor.btsnoop"))
    }

    @Test func appsAreRequired() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.kit)
        process.arguments = ["--", "true"]
        let output = Pipe()
        process.standardError = output
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(text.contains("--apps DIR is required"))
    }
}
