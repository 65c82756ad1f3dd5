import AccessoryCore
import AccessoryPlatform
import Glibc

/// The system's DHCP client for one interface: busybox's `udhcpc` (Debian
/// package `udhcpc`, /sbin/udhcpc), run in the foreground as a child.
///
/// It gets the package's script (`-s`, packaging/libexec/udhcpc-script) that
/// only adds the leased address to the interface and removes it again: no
/// default route and no resolv.conf, because an accessory's hotspot is not the
/// gateway's uplink. The script is installed read-only under /usr, never
/// written at run time (the service's /run is noexec); it keeps the address it
/// added in a file named by `ACCESSORYD_DHCP_STATE` and tells accessoryd the
/// lease on udhcpc's stdout (a pipe the event loop watches). `-R` makes udhcpc
/// release the lease when it is stopped with SIGTERM; its pid file lets a
/// later start stop a client left by a crash.
public final class DHCPClientProcess {
    public static let defaultProgram = "/sbin/udhcpc"
    public static let defaultScript = "/usr/libexec/accessoryd/udhcpc-script"
    /// The environment variable that names the script's address file.
    public static let stateVariable = "ACCESSORYD_DHCP_STATE"

    public let interface: String
    public let pidFile: String
    public private(set) var pid: pid_t = 0
    private let program: String
    private let scriptPath: String
    private let addressFile: String
    private var output: Int32 = -1
    private var outputWatch: WatchToken?
    private var pending: [UInt8] = []
    private weak var loop: EventLoop?
    /// A stop on the loop under way.
    private var stopWatch: WatchToken?
    private var killTimer: TimerToken?
    /// Where `killTimer` is armed: the loop's, or a test's manual one.
    private weak var scheduler: (any Scheduler)?
    private var stopCompletion: (() -> Void)?

    /// `interface` must already be a plain interface name (letters, digits, `.`, `-`, `_`).
    public init(
        interface: String, runtimeDirectory: String, program: String = defaultProgram, script: String = defaultScript
    ) {
        self.interface = interface
        self.program = program
        scriptPath = script
        addressFile = "\(runtimeDirectory)/udhcpc-\(interface).address"
        pidFile = "\(runtimeDirectory)/udhcpc-\(interface).pid"
    }

    deinit { stop() }

    /// Starts udhcpc; `onLease` gets each address it configures, `onExit` its
    /// exit status if it ends by itself (it cannot run, or the interface went away).
    public func start(
        loop: EventLoop, onLease: @escaping (IPv4Address) -> Void, onExit: @escaping (Int32) -> Void
    ) throws(SystemError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw SystemError.last("pipe") }
        // Neither end leaks into other children; the dup2 onto udhcpc's stdout is inherited.
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        // No -n: udhcpc keeps asking (4 discovers 2 s apart, then a 2 s pause, again)
        // through a link that drops and comes back; the join's deadline bounds it.
        let arguments = [program, "-f", "-R", "-i", interface, "-s", scriptPath, "-p", pidFile,
                         "-t", "4", "-T", "2", "-A", "2"]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        // udhcpc passes its environment on to the script.
        var environment: [UnsafeMutablePointer<CChar>?] = inheritedEnvironment(without: Self.stateVariable).map { strdup($0) }
            + [strdup("\(Self.stateVariable)=\(addressFile)"), nil]
        defer { for variable in environment { free(variable) } }
        // The event loop blocks SIGTERM and friends for its signalfd, and a child
        // inherits that mask: udhcpc would never see the SIGTERM that makes it release.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let result = posix_spawn(&child, program, &actions, &attributes, &argv, &environment)
        close(fds[1])
        guard result == 0 else {
            close(fds[0])
            throw SystemError(operation: "posix_spawn(\(program))", errno: result)
        }
        pid = child
        output = fds[0]
        self.loop = loop
        outputWatch = try loop.watch(fd: output) { [weak self] _ in self?.readOutput(onLease: onLease, onExit: onExit) }
    }

    /// Stops udhcpc with SIGTERM (it releases the lease, and its script removes
    /// the address), waiting at most `timeout` before SIGKILL. Blocking: for
    /// when no loop runs (the daemon exiting); on the loop, `stop(on:)`.
    public func stop(timeout: Duration = .seconds(3)) {
        cancelAsynchronousStop()
        guard pid > 0 else {
            stopCompletion = nil
            return
        }
        if let outputWatch { loop?.stopWatching(outputWatch) }
        outputWatch = nil
        kill(pid, SIGTERM)
        // udhcpc closes its stdout when it exits: wait for the pipe's end, bounded.
        if !waitForEndOfOutput(timeout: timeout) { kill(pid, SIGKILL) }
        reap()
        // Whoever waited for a stop on the loop has taken over by calling this.
        stopCompletion = nil
    }

    /// Stops udhcpc on the event loop: SIGTERM now, the end of its output (it
    /// closes it once it has released the lease and its script has run) is
    /// watched for on `loop`, SIGKILL if it has not come after `timeout`.
    /// `completion` runs once udhcpc is gone (at once if it is not running).
    public func stop(
        on loop: EventLoop, scheduler: (any Scheduler)? = nil, timeout: Duration = .seconds(3), completion: @escaping () -> Void
    ) {
        guard pid > 0 else {
            completion()
            return
        }
        guard stopCompletion == nil else {
            // A stop is under way: one more to tell.
            let earlier = stopCompletion
            stopCompletion = { earlier?(); completion() }
            return
        }
        if let outputWatch { self.loop?.stopWatching(outputWatch) }
        outputWatch = nil
        stopCompletion = completion
        kill(pid, SIGTERM)
        do {
            stopWatch = try loop.watch(fd: output) { [weak self] _ in self?.drainWhileStopping() }
            let scheduler: any Scheduler = scheduler ?? loop
            self.scheduler = scheduler
            killTimer = scheduler.at(scheduler.now.advanced(by: timeout)) { [weak self] in
                guard let self, pid > 0 else { return }
                killTimer = nil
                kill(pid, SIGKILL)  // the end of its output follows
            }
        } catch {
            stop(timeout: timeout)
        }
    }

    private func drainWhileStopping() {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = retryingOnInterrupt { buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) } }
        if count > 0 || (count < 0 && errno == EAGAIN) { return }
        cancelAsynchronousStop()
        reap()
        let done = stopCompletion
        stopCompletion = nil
        done?()
    }

    private func cancelAsynchronousStop() {
        if let stopWatch { loop?.stopWatching(stopWatch) }
        stopWatch = nil
        if let killTimer { scheduler?.cancel(killTimer) }
        killTimer = nil
    }

    /// After the end of its output: udhcpc has exited or is about to.
    private func reap() {
        guard pid > 0 else { return }
        var status: Int32 = 0
        _ = retryingOnInterrupt { waitpid(pid, &status, 0) }
        pid = 0
        close(output)
        output = -1
    }

    /// Stops a udhcpc that a previous run left behind (its pid file names it,
    /// and /proc confirms it is udhcpc on this interface).
    public static func stopLeftover(pidFile: String) {
        guard let bytes = try? FileSystem.readFileIfPresent(pidFile, limit: 64),
            let pid = pid_t(String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }), pid > 1,
            let commandLine = try? FileSystem.readFileIfPresent("/proc/\(pid)/cmdline", limit: 4096),
            runsUDHCPC(commandLine)
        else { return }
        kill(pid, SIGTERM)
    }

    /// Whether a /proc cmdline (arguments ending in NUL) runs udhcpc: as its
    /// program (`/sbin/udhcpc -i …`) or as busybox's applet (`busybox udhcpc …`).
    public static func runsUDHCPC(_ commandLine: [UInt8]) -> Bool {
        commandLine.split(separator: 0).contains { argument in
            argument.split(separator: UInt8(ascii: "/")).last?.elementsEqual("udhcpc".utf8) ?? false
        }
    }

    private func readOutput(onLease: (IPv4Address) -> Void, onExit: (Int32) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
        if count < 0 { return }
        if count == 0 {
            // End of output: udhcpc exited by itself.
            if let outputWatch { loop?.stopWatching(outputWatch) }
            outputWatch = nil
            var status: Int32 = 0
            _ = retryingOnInterrupt { waitpid(pid, &status, 0) }
            pid = 0
            close(output)
            output = -1
            onExit(status)
            return
        }
        pending += buffer[0..<count]
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: pending[..<newline], as: UTF8.self)
            pending.removeSubrange(...newline)
            let words = line.split(separator: " ")
            if words.count >= 2, words[0] == "lease", let address = IPv4Address(words[1]) { onLease(address) }
        }
    }

    private func waitForEndOfOutput(timeout: Duration) -> Bool {
        var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000)
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            guard retryingOnInterrupt({ poll(&descriptor, 1, milliseconds) }) > 0 else { return false }
            // Its end, or a pipe that cannot be read: either way nothing more comes.
            if retryingOnInterrupt({ buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) } }) <= 0 {
                return true
            }
        }
    }

    private func inheritedEnvironment(without name: String) -> [String] {
        var variables: [String] = []
        var cursor = environ
        while let entry = cursor.pointee {
            let variable = String(cString: entry)
            if !variable.hasPrefix(name + "=") { variables.append(variable) }
            cursor += 1
        }
        return variables
    }
}
