import AccessoryCodecs

/// How a wpa_supplicant hotspot join is taken apart, as a procedure over
/// values: what happened goes in, what to do comes out, and nothing here
/// touches a socket. It holds what seven flags of `HotspotJoin` used to:
/// whether the join was left, whether a start request or the DHCP client
/// must be waited for, how far the undo got, whether all of it succeeded,
/// and whether the interface is free again.
public struct HotspotJoinTeardown: Equatable, Sendable {
    public enum Input: Equatable, Sendable {
        /// A request of the start sequence was sent, or answered.
        case stepSent, stepAnswered
        /// wpa_supplicant's control socket is gone, and the temporary network
        /// with it (it was never saved).
        case supplicantGone
        /// The join is left: by the app, the bus, a failure or a lost link.
        case leave
        /// The DHCP client stopped (its lease released over the hotspot).
        case dhcpStopped
        /// The undo command sent last was answered.
        case undoAnswered(failed: Bool)
    }

    public enum Action: Equatable, Sendable {
        /// Stop the timers, the events and the DHCP client (`dhcpStopped` follows).
        case stopFollowing
        /// Send this undo command (`undoAnswered` follows).
        case send(WPACommand)
        /// Nothing is left to undo in a wpa_supplicant that went away: forget the record.
        case abandon
        /// Every undo command was answered; `restored` unless one failed.
        case finish(restored: Bool)
        /// The interface is free for the next join.
        case release
    }

    public enum Phase: Equatable, Sendable {
        /// Joining or joined; `stepInFlight`: a start request awaits its reply.
        case running(stepInFlight: Bool)
        /// Left: the undo waits for the start request in flight and for the DHCP client.
        case leaving(stepInFlight: Bool, dhcpStopping: Bool)
        /// The undo is being sent; `remaining` begins with the command in flight.
        case undoing(remaining: [WPACommand], restored: Bool)
        case released
    }

    public private(set) var phase = Phase.running(stepInFlight: false)
    public private(set) var supplicantGone = false

    public init() {}

    public var hasLeft: Bool { if case .running = phase { false } else { true } }
    public var isReleased: Bool { phase == .released }

    /// `undo`: what takes the join's changes back (the temporary network's
    /// removal, then the previous network's restore); nil while it changed nothing.
    public mutating func handle(_ input: Input, undo: [WPACommand]?) -> [Action] {
        switch (input, phase) {
        case (.supplicantGone, _):
            supplicantGone = true
            return []
        case (.stepSent, .running):
            phase = .running(stepInFlight: true)
        case (.stepAnswered, .running):
            phase = .running(stepInFlight: false)
        case (.stepAnswered, .leaving(_, let dhcpStopping)):
            phase = .leaving(stepInFlight: false, dhcpStopping: dhcpStopping)
            return undoIfReady(undo)
        case (.leave, .running(let stepInFlight)):
            // The lease is released over the hotspot, so before its network goes;
            // a start request still out is answered first (the network it adds must not leak).
            phase = .leaving(stepInFlight: stepInFlight, dhcpStopping: true)
            return [.stopFollowing]
        case (.dhcpStopped, .leaving(let stepInFlight, _)):
            phase = .leaving(stepInFlight: stepInFlight, dhcpStopping: false)
            return undoIfReady(undo)
        case (.undoAnswered(let failed), .undoing(var remaining, let restored)):
            remaining.removeFirst()
            return next(remaining, restored: restored && !failed)
        default:
            break
        }
        return []
    }

    private mutating func undoIfReady(_ undo: [WPACommand]?) -> [Action] {
        guard phase == .leaving(stepInFlight: false, dhcpStopping: false) else { return [] }
        guard let undo else {
            phase = .released
            return [.release]
        }
        if supplicantGone {
            phase = .released
            return [.abandon, .release]
        }
        return next(undo, restored: true)
    }

    private mutating func next(_ remaining: [WPACommand], restored: Bool) -> [Action] {
        guard let command = remaining.first else {
            phase = .released
            return [.finish(restored: restored), .release]
        }
        phase = .undoing(remaining: remaining, restored: restored)
        return [.send(command)]
    }

    /// `leave()` once the loop no longer runs: the undo commands to send
    /// now, waiting for each (from the one in flight, which wpa_supplicant
    /// may not have seen); nil when there is nothing to send. `finishBlocking` follows.
    public mutating func takeOver(undo: [WPACommand]?) -> (commands: [WPACommand], restored: Bool)? {
        switch phase {
        case .released:
            return nil
        case .undoing(let remaining, let restored):
            return (remaining, restored)
        case .running, .leaving:
            guard let undo else { return nil }
            return (undo, true)
        }
    }

    /// After `takeOver`: the undo is done (`restored` unless something failed), or there was none.
    public mutating func finishBlocking(restored: Bool?) -> [Action] {
        guard !isReleased else { return [] }
        phase = .released
        return restored.map { [.finish(restored: $0), .release] } ?? [.release]
    }
}
