import Glibc

/// A unix user's name, looked up by uid in the system's password database
/// (`/etc/passwd`, or whatever NSS is configured to use), so the journal can
/// say who decided rather than only which uid.
public enum UnixUser {
    /// The user's login name, or nil when no user has that uid or the lookup fails.
    public static func name(of uid: UInt32) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 1024)
        while true {
            let status = getpwuid_r(uid, &entry, &buffer, buffer.count, &result)
            if status == ERANGE, buffer.count < 1 << 16 {
                buffer = [CChar](repeating: 0, count: buffer.count * 4)
                continue
            }
            guard status == 0, let found = result, let name = found.pointee.pw_name else { return nil }
            return String(cString: name)
        }
    }
}
