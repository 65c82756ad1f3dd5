import AccessoryCore

extension AuthorizationCenter {
    /// The session's app's accessory, if the app may use it now: its own, and
    /// authorized (not still awaiting the app's own authorization).
    func usableGrant(_ id: AccessoryID, of session: ServiceSession) throws(AccessorySetupError) -> Grant {
        let grant = try owned(id, by: session.app)
        guard grant.state == .authorized else {
            throw AccessorySetupError(.invalidRequest, reason: .message("\(DisplayText.escaped(grant.displayName)) is \(grant.state.rawValue), not authorized"))
        }
        return grant
    }
}
