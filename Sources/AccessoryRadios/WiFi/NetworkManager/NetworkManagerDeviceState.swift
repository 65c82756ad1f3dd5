import AccessoryPlatform
import Glibc

/// Whether NetworkManager manages an interface, read from its run-state
/// files without talking to it: NetworkManager keeps one keyfile per device it
/// knows at `/run/NetworkManager/devices/<ifindex>`, with `managed=true` in its
/// `[device]` group while it manages the device (nm-config.c,
/// `nm_config_device_state_write`). /run is a tmpfs, so no file survives a reboot.
public enum NetworkManagerDeviceState {
    public static let defaultDirectory = "/run/NetworkManager/devices"

    /// True when NetworkManager's run state says it manages `interface`; false
    /// when there is no such state (NetworkManager not running or not managing it).
    public static func manages(_ interface: String, directory: String = defaultDirectory) throws(SystemError) -> Bool {
        let index = if_nametoindex(interface)
        guard index != 0 else { throw SystemError.last("if_nametoindex(\(interface))") }
        guard let bytes = try FileSystem.readFileIfPresent("\(directory)/\(index)", limit: 64 * 1024) else {
            return false
        }
        var inDeviceGroup = false
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let text = line.trimmingSpaces
            if text.hasPrefix("[") {
                inDeviceGroup = text == "[device]"
            } else if inDeviceGroup, text.hasPrefix("managed=") {
                let value = text.dropFirst("managed=".count).lowercased()
                return value == "true" || value == "1"
            }
        }
        return false
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" }).reversed())
    }
}
