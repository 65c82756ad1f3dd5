/// AccessorySetupKit's `ASAccessory.AccessoryState`, with the same names.
public enum AuthorizationState: String, Hashable, Sendable, CaseIterable {
    case unauthorized
    /// Picked, waiting for the app's `finishAuthorization` (setup option
    /// `finishInApp` or `confirmAuthorization`).
    case awaitingAuthorization
    case authorized
}
