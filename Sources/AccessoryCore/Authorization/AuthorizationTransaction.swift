/// How an adapter runs one input to the core, shared by the daemon's
/// `AuthorizationCenter` and the tests' world so that what the tests run is
/// what the daemon runs: the input on a copy of the core, its grant write
/// made durable by the caller, and only then the new state kept.
extension AuthorizationCore {
    public typealias Input<Result> =
        (inout AuthorizationCore, MonotonicInstant, AccessoryRegistry) throws(AccessorySetupError) -> (Result, AuthorizationDecision)

    /// Runs `input` as a transaction: when its decision writes grants,
    /// `persist` gets the write and the grants as they will be, and must make
    /// them durable; a failure there (or in the input) leaves the core as it
    /// was and is thrown. The decision is the caller's to carry out.
    public mutating func transact<Result>(
        at now: MonotonicInstant, registry: AccessoryRegistry,
        persist: (GrantWrite, GrantBook) throws(AccessorySetupError) -> Void,
        _ input: Input<Result>
    ) throws(AccessorySetupError) -> (Result, AuthorizationDecision) {
        var next = self
        let (result, decision) = try input(&next, now, registry)
        if let write = decision.grantWrite { try persist(write, next.grants) }
        self = next
        return (result, decision)
    }
}

extension AuthorizationDecision.FollowUp {
    /// The input this follow-up feeds back to the core, against `index` as
    /// it is once the decision's index changes are applied.
    public func input(index: MatchingIndex) -> (inout AuthorizationCore, MonotonicInstant, AccessoryRegistry) -> AuthorizationDecision {
        switch self {
        case .approveByPolicy(let number):
            { core, now, registry in core.approveByPolicy(number, registry: registry, at: now) }
        case .offerRecentlyHeard(let number):
            { core, now, registry in core.offerRecentlyHeard(number, registry: registry, index: index, at: now) }
        }
    }
}

extension MatchingIndex {
    /// Applies a decision's index changes, in order. A descriptor that cannot
    /// be indexed is left out: the core checked it when the request came in.
    public mutating func apply(_ changes: [AuthorizationDecision.IndexChange]) {
        for change in changes {
            switch change {
            case .insert(let match, let descriptor): try? insert(descriptor, id: match.descriptorID, app: match.app)
            case .remove(let match): _ = remove(match)
            }
        }
    }
}
