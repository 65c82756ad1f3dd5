import AccessoryCommandLine
import AccessoryPlatform

/// `accessoryctl --completion-words requests|accessories`, hidden: what the
/// bash completion offers after `approve`/`deny` (pending requests' numbers)
/// and `remove`/`rename` (accessories' ids), asked of the running accessoryd,
/// one a line. Nothing at all, and status 0, when accessoryd does not run,
/// the caller may not ask (Admin1: root and accessory-admin), or it does not
/// answer within a second: a completion never prints an error, never waits
/// long, and never starts accessoryd.
enum CompletionWords {
    static let requests = "requests"
    static let accessories = "accessories"
    static let timeout = Duration.seconds(1)

    static func run(_ kind: String) -> Int32 {
        StandardOutput.write(words(kind).map { $0 + "\n" }.joined())
        return 0
    }

    /// On the system bus (or `DBUS_SYSTEM_BUS_ADDRESS`, as for every command).
    static func words(_ kind: String) -> [String] {
        guard var client = try? AdminClient(busAddress: nil) else { return [] }
        client.timeout = timeout
        guard client.serviceIsRunning() else { return [] }
        switch kind {
        case requests: return (try? client.listRequests().map { String($0.number) }) ?? []
        case accessories: return (try? client.listAccessories().map(\.id)) ?? []
        default: return []
        }
    }
}
