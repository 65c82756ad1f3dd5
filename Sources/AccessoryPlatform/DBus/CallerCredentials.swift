import CSystemd
import Glibc

/// Who called: the uid the bus daemon recorded for the caller's connection,
/// its groups, and the systemd unit its process runs in where there is one.
/// Never what the caller says about itself.
public struct CallerCredentials: Hashable, Sendable {
    public var uid: UInt32
    /// The unix user name for `uid`, when the system knows one.
    public var userName: String?
    /// The caller's systemd unit (`acme-logger.service`), read from its
    /// cgroup or asked of systemd.
    public var unit: String?
    /// Why `unit` is unknown, when it is (no systemd on the bus …): the
    /// refusal of an app whose manifest names a unit says it.
    public var unitUnknown: String?
    /// The caller's groups as the bus daemon recorded them at connection
    /// (`BusConnection.groups(of:)`), filled in only where they matter
    /// (Admin1); empty otherwise.
    public var groups: [UInt32]

    public init(uid: UInt32, userName: String?, unit: String?, groups: [UInt32] = [], unitUnknown: String? = nil) {
        self.uid = uid
        self.userName = userName
        self.unit = unit
        self.groups = groups
        self.unitUnknown = unitUnknown
    }

    init(_ message: BusMessage) throws(BusError) {
        var creds: OpaquePointer?
        let mask = UInt64(SD_BUS_CREDS_EUID) | UInt64(SD_BUS_CREDS_UNIT)
            | UInt64(SD_BUS_CREDS_AUGMENT)
        guard sd_bus_query_sender_creds(message.message, mask, &creds) >= 0, let creds else {
            throw BusError(name: "org.freedesktop.DBus.Error.AccessDenied", message: "cannot tell who the caller is")
        }
        defer { sd_bus_creds_unref(creds) }
        var uid: uid_t = 0
        guard sd_bus_creds_get_euid(creds, &uid) >= 0 else {
            throw BusError(name: "org.freedesktop.DBus.Error.AccessDenied", message: "the bus did not say who the caller is")
        }
        self.uid = uid
        var unit: UnsafePointer<CChar>?
        self.unit = sd_bus_creds_get_unit(creds, &unit) >= 0 ? unit.map { String(cString: $0) } : nil
        self.userName = Self.userName(uid)
        self.groups = []
        self.unitUnknown = nil
    }

    /// The systemd unit of process `pid`, read from its cgroup in /proc
    /// (a local file, never a peer): nil when it has none or is gone.
    public static func unit(ofProcess pid: UInt32) -> String? {
        var creds: OpaquePointer?
        guard sd_bus_creds_new_from_pid(&creds, pid_t(bitPattern: pid), UInt64(SD_BUS_CREDS_UNIT)) >= 0, let creds else { return nil }
        defer { sd_bus_creds_unref(creds) }
        var unit: UnsafePointer<CChar>?
        return sd_bus_creds_get_unit(creds, &unit) >= 0 ? unit.map { String(cString: $0) } : nil
    }

    static func userName(_ uid: uid_t) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return String(cString: entry.pw_name)
    }
}
