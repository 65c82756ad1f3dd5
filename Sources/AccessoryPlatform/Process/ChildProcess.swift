import Glibc

/// Starts a command with sockets as its fd 3, 4, … and the signals the
/// daemon's loop blocks unblocked again (a child inherits the mask).
public enum ChildProcess {
    public static func spawn(_ command: [String], passing fds: [Int32]) throws(SystemError) -> pid_t {
        // Out of the way of 3, 4, … first, so no dup2 overwrites a socket still to be passed.
        var high: [Int32] = []
        defer { for fd in high { close(fd) } }
        for fd in fds {
            let copy = fcntl(fd, F_DUPFD_CLOEXEC, Int32(100))
            guard copy >= 0 else { throw SystemError.last("fcntl(F_DUPFD_CLOEXEC)") }
            high.append(copy)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (offset, fd) in high.enumerated() { posix_spawn_file_actions_adddup2(&actions, fd, Int32(3 + offset)) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))

        let argv = command.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, command[0], &actions, &attributes, argv, environ)
        guard result == 0 else { throw SystemError(operation: "posix_spawnp(\(command[0]))", errno: result) }
        return pid
    }

    /// Reaps `pid` if it has ended, without waiting: its exit status as a
    /// shell reports it (the code, or 128 + the signal that killed it); nil
    /// while it runs.
    public static func reapIfEnded(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}
