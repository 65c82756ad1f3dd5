import Foundation
import Glibc

/// A real dbus-daemon of the test's own, on a socket in a temporary
/// directory, so bus tests never touch the machine's buses. Any local user
/// may connect, so a test can call in as a second, unprivileged app.
public final class PrivateBus {
    /// What the bus allows.
    public enum Policy {
        /// Everything: the tests of what accessoryd itself checks.
        case permissive
        /// The default policy of Debian's system bus (/usr/share/dbus-1/system.conf:
        /// method calls denied unless a policy allows them), plus this policy
        /// file, as a package's file in /usr/share/dbus-1/system.d is.
        case systemBus(including: String)
    }

    public let address: String
    private let daemon: Process
    /// The socket and configuration; removed after the daemon is killed.
    private let scratch: ScratchDirectory

    /// `limits`: dbus-daemon's `<limit>`s by name (`max_match_rules_per_connection`).
    public init(policy: Policy = .permissive, limits: [String: Int] = [:]) throws {
        scratch = try ScratchDirectory("bus")
        let directory = scratch.path
        // Replies, signals and receiving are allowed on both; what differs is
        // who may own names and send method calls.
        let common = """
                <allow user="*"/>
                <allow send_type="signal"/>
                <allow send_requested_reply="true" send_type="method_return"/>
                <allow send_requested_reply="true" send_type="error"/>
                <allow receive_type="method_call"/>
                <allow receive_type="method_return"/>
                <allow receive_type="error"/>
                <allow receive_type="signal"/>
            """
        let rules: String
        switch policy {
        case .permissive:
            rules = """
                <policy context="default">
                \(common)
                  <allow own="*"/>
                  <allow send_type="method_call"/>
                </policy>
                """
        case .systemBus(let included):
            try included.write(toFile: directory + "/policy.conf", atomically: true, encoding: .utf8)
            rules = """
                <policy context="default">
                \(common)
                  <deny own="*"/>
                  <deny send_type="method_call"/>
                  <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
                  <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
                  <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Properties"/>
                  <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Peer"/>
                </policy>
                <include>\(directory)/policy.conf</include>
                """
        }
        let config = directory + "/bus.conf"
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>custom</type>
              <listen>unix:path=\(directory)/socket</listen>
              <auth>EXTERNAL</auth>
            \(limits.sorted { $0.key < $1.key }.map { "  <limit name=\"\($0.key)\">\($0.value)</limit>" }.joined(separator: "\n"))
            \(rules)
            </busconfig>
            """.write(toFile: config, atomically: true, encoding: .utf8)
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--config-file=\(config)", "--nofork", "--nopidfile", "--print-address=1"]
        let output = Pipe()
        daemon.standardOutput = output
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        // The first line dbus-daemon prints is its address.
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line.append(byte)
        }
        address = String(decoding: line, as: UTF8.self)
    }

    deinit {
        stop()
        // Then `scratch` goes, with the socket and the configuration.
    }

    /// The dbus-daemon's pid (to stop it with SIGSTOP: a bus daemon that does not answer).
    public var daemonPID: Int32 { daemon.processIdentifier }

    /// Kills the bus daemon now, as a crash or a restart of dbus would: every
    /// connection to it is cut. Once only; the deinit does it otherwise.
    public func stop() {
        // dbus-daemon ignores SIGTERM here; it holds nothing worth a clean exit.
        guard daemon.isRunning else { return }
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitUntilExit()
    }

    /// Starts `busctl --address=… ARGS` (as `user` when given) in the
    /// background; the caller pumps its own event loop until it ends.
    public func busctl(_ arguments: [String], as user: String? = nil) throws -> (Process, Pipe, Pipe) {
        try start(["/usr/bin/busctl", "--address=\(address)"] + arguments, as: user)
    }

    /// Starts any command, as `user` when given (through setpriv).
    public func start(_ command: [String], as user: String? = nil) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        if let user {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(user)", "--regid=\(user == "nobody" ? "nogroup" : user)", "--clear-groups"] + command
        } else {
            process.executableURL = URL(fileURLWithPath: command[0])
            process.arguments = Array(command.dropFirst())
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return (process, out, err)
    }
}
