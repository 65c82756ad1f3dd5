/// An app's wish to be woken when one of its accessories appears
/// (`Session1.ObservePresence`): kept in the grant, so it is written with
/// the same guarantees, survives reboots and goes when the grant goes.
extension AuthorizationCore {
    /// `manifest`: the app's manifest as it is now; observing needs its `WakeSocket=`.
    public mutating func observePresence(
        _ id: AccessoryID, manifest: AppManifest, observe: Bool
    ) throws(AccessorySetupError) -> AuthorizationDecision {
        // Ownership first: another app's accessory is unknown, whatever the manifest says.
        var grant = try grants.owned(id, by: manifest.app)
        if observe, manifest.wakeSocket == nil {
            throw AccessorySetupError(.invalidRequest, reason: .message(
                "observing presence needs WakeSocket= in the app's manifest (\(manifest.source))"))
        }
        var decision = AuthorizationDecision()
        guard grant.observesPresence != observe else { return decision }
        grant.observesPresence = observe
        decision.grantWrite = .save(grant)
        grants.save(grant)
        decision.log(nil, .info, "\(manifest.app) \(observe ? "observes" : "no longer observes") the presence of \(grant.displayName)",
                     ["app": "\(manifest.app)", "accessory.id": "\(id)", "observes_presence": "\(observe)"])
        return decision
    }
}
