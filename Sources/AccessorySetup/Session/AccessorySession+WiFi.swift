import AccessoryCore
import AccessoryPlatform
import AccessoryWire

/// How a join of an accessory's hotspot ended (`JoinHotspot`'s result).
public struct HotspotJoin: Hashable, Sendable, CustomStringConvertible {
    /// `joined`, `wrong-key`, `network-not-found`, `association-rejected`, `timed-out` or `failed`.
    public var result: String
    /// The interface accessoryd joined with.
    public var interface: String
    /// The IPv4 address the hotspot gave it (empty unless joined).
    public var address: String

    public var isJoined: Bool { result == "joined" }

    public var description: String {
        isJoined ? "joined interface=\(interface) address=\(address)" : result
    }
}

extension AccessorySession {
    /// Joins `accessory`'s hotspot (a Wi-Fi accessory this app holds) with
    /// `passphrase` (empty for an open hotspot). Returns within the agent's
    /// bound (40 s) with the result; a passphrase of the wrong length is
    /// `invalidRequest` before anything is sent.
    public func joinHotspot(of accessory: Accessory, passphrase: String) async throws(AccessorySetupError) -> HotspotJoin {
        let (thread, path) = try core.active()
        return try await thread.perform { context throws(AccessorySetupError) -> HotspotJoin in
            let reply = try ServiceCalls.call(
                context, path: path, interface: BusNames.session, member: Session1.joinHotspot.name, timeout: .seconds(90)
            ) {
                $0.append(objectPath: BusNames.path(of: accessory.id)).append(passphrase)
            }
            return try ServiceCalls.decode("JoinHotspot reply") { () throws(BusError) in
                HotspotJoin(result: try reply.readString(), interface: try reply.readString(), address: try reply.readString())
            }
        }
    }

    /// Leaves the hotspot; the interface goes back to its previous network.
    public func leaveHotspot(of accessory: Accessory) async throws(AccessorySetupError) {
        let (thread, path) = try core.active()
        try await thread.perform { context throws(AccessorySetupError) in
            _ = try ServiceCalls.call(context, path: path, interface: BusNames.session, member: Session1.leaveHotspot.name) {
                $0.append(objectPath: BusNames.path(of: accessory.id))
            }
        }
    }
}
