import CSystemd

extension BusConnection {
    /// The groups of the peer that sent `message`, as the bus daemon recorded
    /// them from the kernel when the peer connected (`GetConnectionCredentials`,
    /// `UnixGroupIDs`). sd-bus would read them from /proc/PID instead, which a
    /// caller that exits, its pid taken by a member's process, could turn into
    /// someone else's groups. nil when the bus does not report groups.
    public func groups(of message: BusMessage) throws(BusError) -> [UInt32]? {
        guard let sender = message.sender else { throw .invalidArguments("no sender") }
        let reply = try call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                             interface: "org.freedesktop.DBus", member: "GetConnectionCredentials") { _ = $0.append(sender) }
        return try reply.unixGroupIDs()
    }
}

extension BusMessage {
    /// `UnixGroupIDs` from an `a{sv}` of connection credentials; the other entries are skipped.
    func unixGroupIDs() throws(BusError) -> [UInt32]? {
        var groups: [UInt32]?
        try readArray("{sv}") { () throws(BusError) in
            try readContainer("e", "sv") { () throws(BusError) in
                guard try readString() == "UnixGroupIDs" else {
                    _ = sd_bus_message_skip(message, "v")
                    return
                }
                try readContainer("v", "au") { () throws(BusError) in
                    var ids: [UInt32] = []
                    try readArray("u") { () throws(BusError) in ids.append(try readUInt32()) }
                    groups = ids
                }
            }
        }
        return groups
    }
}

/// What `GetConnectionCredentials` says about a peer: the kernel's record
/// from when it connected, asked without waiting (`BusConnection.callAsync`).
public struct ConnectionCredentials: Equatable, Sendable {
    public var uid: UInt32?
    public var pid: UInt32?
    public var groups: [UInt32]?
}

extension BusMessage {
    /// `UnixUserID`, `ProcessID` and `UnixGroupIDs` of an `a{sv}` of connection credentials.
    public func connectionCredentials() throws(BusError) -> ConnectionCredentials {
        var found = ConnectionCredentials()
        try readArray("{sv}") { () throws(BusError) in
            try readContainer("e", "sv") { () throws(BusError) in
                switch try readString() {
                case "UnixUserID": try readContainer("v", "u") { () throws(BusError) in found.uid = try readUInt32() }
                case "ProcessID": try readContainer("v", "u") { () throws(BusError) in found.pid = try readUInt32() }
                case "UnixGroupIDs":
                    try readContainer("v", "au") { () throws(BusError) in
                        var ids: [UInt32] = []
                        try readArray("u") { () throws(BusError) in ids.append(try readUInt32()) }
                        found.groups = ids
                    }
                default: _ = sd_bus_message_skip(message, "v")
                }
            }
        }
        return found
    }
}

