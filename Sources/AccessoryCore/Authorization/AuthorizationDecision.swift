/// What one input to the authorization core decided, for the daemon's
/// adapter to carry out in this order: make `grantWrite` durable (if it
/// fails, keep the core as it was and fail the call), then apply
/// `indexChanges`, write `log`, deliver `notices`, and feed the core each
/// of `followUps` as a new input. The next deadline and the demand are read
/// from the core afterwards (`nextDeadline`, `demand`).
public struct AuthorizationDecision: Sendable {
    /// A change to the matching index: a request's descriptors come in while
    /// it discovers and go when it stops.
    public enum IndexChange: Sendable {
        case insert(DescriptorMatch, DiscoveryDescriptor)
        case remove(DescriptorMatch)
    }

    /// An input the core asks for once this decision is carried out.
    public enum FollowUp: Hashable, Sendable {
        /// An open approval window may approve this request now.
        case approveByPolicy(UInt32)
        /// The new request starts with the devices heard lately (the index holds its descriptors now).
        case offerRecentlyHeard(UInt32)
    }

    public var grantWrite: GrantWrite?
    public var indexChanges: [IndexChange] = []
    public var log: [AuthorizationLogLine] = []
    public var notices: [AuthorizationNotice] = []
    public var followUps: [FollowUp] = []
    /// Pairings to start or stop, bonds to drop.
    public var pairing: [SetupPairingOrder] = []

    public init() {}

    /// Nothing to carry out: most devices heard concern no request and no grant.
    public var isEmpty: Bool {
        grantWrite == nil && indexChanges.isEmpty && log.isEmpty && notices.isEmpty && followUps.isEmpty && pairing.isEmpty
    }

    mutating func notify(_ notice: AuthorizationNotice) { notices.append(notice) }

    mutating func log(_ event: MessageID?, _ level: AuthorizationLogLine.Level, _ message: String,
                      _ metadata: [String: AuthorizationLogLine.Value] = [:]) {
        log.append(AuthorizationLogLine(event, level, message, metadata))
    }

    mutating func followUp(_ next: FollowUp) {
        if !followUps.contains(next) { followUps.append(next) }
    }
}
