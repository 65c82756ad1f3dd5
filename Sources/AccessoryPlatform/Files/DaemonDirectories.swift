import Glibc

/// Where accessoryd keeps files of its own: systemd's RuntimeDirectory= and
/// StateDirectory= (passed as $RUNTIME_DIRECTORY, $STATE_DIRECTORY), or
/// /run/accessoryd and /var/lib/accessoryd when started by hand. Never /tmp.
public enum DaemonDirectories {
    public static var runtime: String { fromEnvironment("RUNTIME_DIRECTORY") ?? "/run/accessoryd" }
    public static var state: String { fromEnvironment("STATE_DIRECTORY") ?? "/var/lib/accessoryd" }

    /// Creates `path` (mode 0700) if it is missing; its parent must exist.
    /// A directory made here is made durable (its parent fsync'd): what is
    /// stored in it next must not vanish with it in a power cut.
    public static func ensure(_ path: String) throws(SystemError) {
        if mkdir(path, 0o700) == 0 {
            let parent = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
            try AtomicFile.syncDirectory(parent)
        } else if errno != EEXIST {
            throw SystemError.last("mkdir(\(path))")
        }
    }

    /// Removes a file; a missing one is not an error.
    public static func remove(_ path: String) throws(SystemError) {
        if unlink(path) != 0 && errno != ENOENT { throw SystemError.last("unlink(\(path))") }
    }

    /// systemd passes one path per directory listed, separated by colons; the first is ours.
    private static func fromEnvironment(_ name: String) -> String? {
        guard let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty else { return nil }
        return value.split(separator: ":").first.map(String.init)
    }
}
