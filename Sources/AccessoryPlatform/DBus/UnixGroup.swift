import Glibc

/// A unix group looked up by name in the system's group database
/// (`/etc/group`, or whatever NSS is configured to use), so a caller's gids
/// can be checked against it.
public enum UnixGroup {
    /// The group's gid, or nil when no group has that name.
    public static func gid(named name: String) throws(SystemError) -> UInt32? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 4096)
        while true {
            let status = getgrnam_r(name, &entry, &buffer, buffer.count, &result)
            // A group with many members needs more room than a line of /etc/group usually takes.
            if status == ERANGE, buffer.count < 1 << 20 {
                buffer = [CChar](repeating: 0, count: buffer.count * 4)
                continue
            }
            // getgrnam_r(3): 0 with no result, or one of these, all mean "no such group".
            if status == 0 || status == ENOENT || status == ESRCH || status == EBADF || status == EPERM {
                return result.map { $0.pointee.gr_gid }
            }
            throw SystemError(operation: "getgrnam_r(\(name))", errno: status)
        }
    }
}
