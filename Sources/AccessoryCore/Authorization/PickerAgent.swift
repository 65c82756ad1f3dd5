/// The registered picker agent (a UI, a button daemon): its unique bus name
/// and object path. While one is registered, it decides and the approval
/// windows stay out of the way.
public struct PickerAgent: Hashable, Sendable {
    public var name: String
    public var path: String

    public init(name: String, path: String) {
        self.name = name
        self.path = path
    }
}

/// Who may be the picker agent: one at a time, so two UIs never answer the same request.
public struct PickerAgentSlot: Sendable {
    public private(set) var agent: PickerAgent?

    public init() {}

    public mutating func register(_ candidate: PickerAgent) throws(AccessorySetupError) {
        if let agent, agent.name != candidate.name {
            throw AccessorySetupError(.pickerAlreadyActive, reason: .message("a picker agent is already registered (\(agent.name))"))
        }
        agent = candidate
    }

    /// Returns whether `name` was the agent.
    public mutating func unregister(name: String) -> Bool {
        guard agent?.name == name else { return false }
        agent = nil
        return true
    }
}
