import AccessoryCore

/// How the picker runs (`ASPickerDisplaySettings`).
public struct PickerDisplaySettings: Hashable, Sendable {
    /// How long the agent looks for candidates before the picker ends with
    /// `discoveryTimeout`.
    public enum DiscoveryTimeout: Hashable, Sendable {
        /// 30 seconds.
        case short
        /// 2 minutes, the default: on a gateway someone has to walk to a console.
        case medium
        /// 10 minutes.
        case long
        /// Until the picker is answered or the app ends it.
        case unbounded
        case seconds(UInt32)
    }

    public var discoveryTimeout: DiscoveryTimeout
    /// The app chooses what is shown: it gets `accessoryDiscovered` events and
    /// answers with `updatePicker(showing:)`.
    public var filterDiscoveryResults: Bool

    public init(discoveryTimeout: DiscoveryTimeout = .medium, filterDiscoveryResults: Bool = false) {
        self.discoveryTimeout = discoveryTimeout
        self.filterDiscoveryResults = filterDiscoveryResults
    }
}
