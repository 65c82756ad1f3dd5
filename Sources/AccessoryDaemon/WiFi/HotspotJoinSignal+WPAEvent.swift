import AccessoryCodecs
import AccessoryCore

extension HotspotJoinSignal {
    /// What a wpa_supplicant event means for the join of `network`; nil for
    /// events that say nothing about it (scans, other networks, BSS lists).
    init?(_ event: WPAEvent, joining network: WPANetworkID) {
        func ours(_ id: WPANetworkID?) -> Bool { id == nil || id == network }
        switch event {
        case .connected(_, let id) where ours(id): self = .connected
        case .disconnected(_, let reason, _): self = .disconnected(reason: reason)
        case .temporarilyDisabled(let id, let reason) where ours(id): self = .temporarilyDisabled(reason: reason)
        case .networkNotFound: self = .networkNotFound
        case .associationRejected(_, let status): self = .associationRejected(status: status)
        case .authenticationRejected(let status): self = .associationRejected(status: status)
        case .fourWayHandshakeFailed: self = .handshakeFailed
        case .terminating: self = .failed(reason: "wpa_supplicant stopped")
        default: return nil
        }
    }
}
