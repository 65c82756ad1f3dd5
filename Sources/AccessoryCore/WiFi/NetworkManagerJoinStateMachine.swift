/// Follows one join through NetworkManager, from the activation request to
/// its result, from what NetworkManager signals and an injected clock; no
/// I/O. The active connection's state says where the join is; the device's
/// state reason, kept from its last `StateChanged`, says why it failed
/// (the active connection's own reason is too coarse: "device disconnected").
/// The owner calls `checkDeadline()` when a timer set to `deadline` fires.
public struct NetworkManagerJoinStateMachine {
    public enum Phase: Hashable, Sendable {
        /// Activation asked for; NetworkManager associates and runs DHCP.
        case activating
        /// The active connection is activated: the owner reads its address.
        case readingAddress
        case finished(HotspotJoinResult)
    }

    /// What the owner is told to do after a signal.
    public enum Action: Hashable, Sendable {
        case none
        /// Read the active connection's IPv4 address (its Ip4Config's AddressData).
        case readAddress
        case finish(HotspotJoinResult)
    }

    /// `NMActiveConnectionState`.
    public enum ActiveState: UInt32, Sendable {
        case unknown = 0, activating = 1, activated = 2, deactivating = 3, deactivated = 4
    }

    public let interface: String
    public let deadline: MonotonicInstant
    public private(set) var phase: Phase = .activating
    private let clock: any MonotonicClock
    /// The last reason the device gave for a state change, while this join lasts.
    private var deviceReason: UInt32?

    public init(interface: String, timeout: Duration, clock: any MonotonicClock) {
        self.interface = interface
        self.clock = clock
        deadline = clock.now.advanced(by: timeout)
    }

    public var result: HotspotJoinResult? {
        if case .finished(let result) = phase { return result }
        return nil
    }

    /// `org.freedesktop.NetworkManager.Device.StateChanged(new, old, reason)`.
    /// NM_DEVICE_STATE_FAILED is 120.
    public mutating func deviceStateChanged(new: UInt32, reason: UInt32) -> Action {
        guard result == nil else { return .none }
        if let ended = checkDeadline() { return .finish(ended) }
        if new == 120 || Self.failure(deviceReason: reason) != nil { deviceReason = reason }
        return .none
    }

    /// `org.freedesktop.NetworkManager.Connection.Active.StateChanged(state, reason)`.
    public mutating func activeStateChanged(_ raw: UInt32, reason: UInt32) -> Action {
        guard result == nil else { return .none }
        if let ended = checkDeadline() { return .finish(ended) }
        switch ActiveState(rawValue: raw) {
        case .activated?:
            guard phase == .activating else { return .none }
            phase = .readingAddress
            return .readAddress
        case .deactivating?, .deactivated?:
            return .finish(finish(Self.failure(deviceReason: deviceReason) ?? Self.failure(activeReason: reason)))
        default:
            return .none
        }
    }

    /// The address read after activation; nil when the connection has none.
    public mutating func addressRead(_ address: IPv4Address?) -> Action {
        guard result == nil else { return .none }
        guard let address else { return .finish(finish(.failed(reason: "NetworkManager activated the hotspot without an IPv4 address"))) }
        return .finish(finish(.joined(interface: interface, address: address)))
    }

    /// Anything outside the state signals that ends the join (a refused call, NetworkManager gone).
    public mutating func failed(_ reason: String) -> Action {
        guard result == nil else { return .none }
        return .finish(finish(.failed(reason: reason)))
    }

    @discardableResult
    public mutating func checkDeadline() -> HotspotJoinResult? {
        guard result == nil, clock.now >= deadline else { return nil }
        if phase == .readingAddress { return finish(.failed(reason: "NetworkManager did not tell the address in time")) }
        if let reason = deviceReason, let failure = Self.failure(deviceReason: reason) { return finish(failure) }
        return finish(.timedOut)
    }

    private mutating func finish(_ result: HotspotJoinResult) -> HotspotJoinResult {
        phase = .finished(result)
        return result
    }

    /// What a device state reason (`NMDeviceStateReason`) means for a join;
    /// nil for reasons that are not a failure of it.
    public static func failure(deviceReason: UInt32?) -> HotspotJoinResult? {
        switch deviceReason {
        // NO_SECRETS (the key failed and no agent may be asked for another),
        // SUPPLICANT_DISCONNECT (the handshake failed), SUPPLICANT_TIMEOUT.
        case 7?, 8?, 11?: .wrongKey
        case 53?: .networkNotFound  // SSID_NOT_FOUND
        case 5?, 6?: .failed(reason: "no IPv4 address from DHCP")  // IP_CONFIG_UNAVAILABLE, IP_CONFIG_EXPIRED
        case 15?, 16?, 17?: .failed(reason: "no IPv4 address from DHCP")  // DHCP_START_FAILED, DHCP_ERROR, DHCP_FAILED
        case 9?: .failed(reason: "wpa_supplicant refused the hotspot's configuration")  // SUPPLICANT_CONFIG_FAILED
        case 10?: .failed(reason: "NetworkManager's wpa_supplicant failed")  // SUPPLICANT_FAILED
        case 4?: .failed(reason: "NetworkManager could not configure the interface")  // CONFIG_FAILED
        case 36?: .failed(reason: "the interface was removed")  // REMOVED
        // NOW_UNMANAGED: NetworkManager stopping (it unmanages its devices first), or told to let go.
        case 3?: .failed(reason: "NetworkManager stopped managing the interface")
        default: nil
        }
    }

    /// What an active connection's state reason (`NMActiveConnectionStateReason`)
    /// means when the device gave nothing more telling.
    public static func failure(activeReason: UInt32) -> HotspotJoinResult {
        switch activeReason {
        case 9: .wrongKey  // NO_SECRETS
        case 5: .failed(reason: "no IPv4 address from DHCP")  // IP_CONFIG_INVALID
        case 6: .timedOut  // CONNECT_TIMEOUT
        case 2: .failed(reason: "the hotspot connection was deactivated by someone else")  // USER_DISCONNECTED
        case 11: .failed(reason: "the hotspot profile was removed")  // CONNECTION_REMOVED
        case 14: .failed(reason: "the interface was removed")  // DEVICE_REMOVED
        default: .failed(reason: "NetworkManager ended the activation (reason \(activeReason))")
        }
    }
}
