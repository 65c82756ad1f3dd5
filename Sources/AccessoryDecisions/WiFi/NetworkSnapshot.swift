import AccessoryCodecs

/// The interface's networks as they were before a join: the one in use, and
/// every one wpa_supplicant was allowed to pick (SELECT_NETWORK disables all the
/// others, so each has to be enabled again afterwards).
public struct NetworkSnapshot: Hashable, Sendable {
    public var current: WPANetworkID?
    public var enabled: [WPANetworkID]

    public init(current: WPANetworkID?, enabled: [WPANetworkID]) {
        self.current = current
        self.enabled = enabled
    }

    /// From LIST_NETWORKS; a temporarily disabled network still counts as enabled.
    public init(_ networks: [WPANetworkListEntry]) {
        current = networks.first { $0.flags.contains(.current) }?.id
        enabled = networks.filter { !$0.flags.contains(.disabled) }.map(\.id)
    }

    /// The commands that put it back, once the temporary network is gone:
    /// select the previous network (which disables the rest), then enable the others.
    public var restoreCommands: [WPACommand] {
        var commands: [WPACommand] = []
        if let current { commands.append(.selectNetwork(current)) }
        for id in enabled where id != current { commands.append(.enableNetwork(id)) }
        return commands
    }
}
