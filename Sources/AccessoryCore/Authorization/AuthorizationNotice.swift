/// What the authorization core tells the outside world; the D-Bus service
/// turns each into signals for exactly the peers entitled to them.
public enum AuthorizationNotice: Sendable {
    /// Picker events, for the session that showed the picker.
    case session(UInt64, SessionEvent)
    /// Accessory events, for every active session of the app holding it.
    case app(AppID, SessionEvent)
    /// For the registered picker agent.
    case agent(AgentEvent)
    /// A granted accessory's presence or advertisement, for its app only.
    case presence(Grant, present: Bool, rssi: Int?)
    case advertisement(Grant, rssi: Int?, data: [UInt8])

    public enum SessionEvent: Sendable {
        case pickerDidPresent
        case accessoryDiscovered(SetupCandidate)
        case accessoryAdded(AccessoryID)
        case accessoryChanged(AccessoryID)
        case accessoryRemoved(AccessoryID)
        case pickerSetupRename(AccessoryID)
        /// The approved accessory is being paired; its grant waits for the end.
        case pickerSetupPairing(AccessoryID)
        case pickerSetupFailed(AccessorySetupError)
        case pickerDidDismiss(AccessorySetupError?)
        case migrationComplete
    }

    public enum AgentEvent: Sendable {
        case requestAdded(SetupRequest)
        case candidateAdded(SetupRequest, SetupCandidate)
        case requestEnded(UInt32, outcome: String)
        /// A pairing the agent `agent` approved asks it something; for that agent only.
        case pairingQuestion(PairingQuestion, agent: String)
        /// That question is over (answered, replaced, timed out, the pairing ended).
        case pairingQuestionWithdrawn(PairingQuestion.ID, agent: String)
    }
}
