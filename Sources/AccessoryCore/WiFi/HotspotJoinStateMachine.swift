/// Follows one join from "network selected" to its result, from the signals it
/// is fed and an injected clock; no I/O. The owner calls `checkDeadline()` when
/// a timer set to `deadline` fires, so the join always ends by then.
public struct HotspotJoinStateMachine {
    public enum Phase: Hashable, Sendable {
        /// Waiting for the link: scanning, authenticating, the 4-way handshake.
        case associating
        /// Linked; waiting for the DHCP client.
        case obtainingAddress
        case finished(HotspotJoinResult)
    }

    public let interface: String
    public let policy: HotspotJoinPolicy
    public let deadline: MonotonicInstant
    public private(set) var phase: Phase = .associating

    private let clock: any MonotonicClock
    private var notFoundScans = 0
    private var rejections: [UInt16] = []
    private var handshakeFailures = 0
    /// Once the hotspot took the key, a later handshake failure is the radio's
    /// doing (a timeout under load), not a wrong key: wpa_supplicant retries.
    private var keyAccepted = false

    public init(interface: String, policy: HotspotJoinPolicy = HotspotJoinPolicy(), clock: any MonotonicClock) {
        self.interface = interface
        self.policy = policy
        self.clock = clock
        deadline = clock.now.advanced(by: policy.timeout)
    }

    public var result: HotspotJoinResult? {
        if case .finished(let result) = phase { return result }
        return nil
    }

    /// Applies `signal`; returns the result when this signal (or the deadline, already
    /// past) ends the join, once. Signals after the end change nothing.
    @discardableResult
    public mutating func handle(_ signal: HotspotJoinSignal) -> HotspotJoinResult? {
        guard result == nil else { return nil }
        if let ended = checkDeadline() { return ended }
        switch (phase, signal) {
        case (.associating, .connected):
            phase = .obtainingAddress
            keyAccepted = true
        case (.obtainingAddress, .addressObtained(let address)):
            return finish(.joined(interface: interface, address: address))
        case (.obtainingAddress, .disconnected):
            // wpa_supplicant reconnects by itself; the DHCP client carries on once it has.
            phase = .associating
        case (_, .temporarilyDisabled(let reason)) where reason == "WRONG_KEY" && !keyAccepted:
            return finish(.wrongKey)
        case (.associating, .handshakeFailed) where !keyAccepted:
            handshakeFailures += 1
        case (.associating, .networkNotFound):
            notFoundScans += 1
            if notFoundScans >= policy.notFoundScans { return finish(.networkNotFound) }
        case (.associating, .associationRejected(let status)):
            rejections.append(status)
            if rejections.count >= policy.rejections { return finish(.associationRejected(status: status)) }
        case (_, .failed(let reason)):
            return finish(.failed(reason: reason))
        default:
            break
        }
        return nil
    }

    /// Ends the join if its deadline has passed, with the most telling result so far.
    @discardableResult
    public mutating func checkDeadline() -> HotspotJoinResult? {
        guard result == nil, clock.now >= deadline else { return nil }
        if phase == .obtainingAddress { return finish(.failed(reason: "no IPv4 address from DHCP")) }
        if handshakeFailures > 0 { return finish(.wrongKey) }
        if let status = rejections.last { return finish(.associationRejected(status: status)) }
        if notFoundScans > 0 { return finish(.networkNotFound) }
        return finish(.timedOut)
    }

    private mutating func finish(_ result: HotspotJoinResult) -> HotspotJoinResult {
        phase = .finished(result)
        return result
    }
}
