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
