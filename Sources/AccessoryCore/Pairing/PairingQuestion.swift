/// One prompt of the back end put to the approver: what PickerAgent1 shows
/// or accessoryctl asks. Answered once, by its id.
public struct PairingQuestion: Hashable, Sendable {
    /// The setup request it belongs to and the prompt's number in that
    /// pairing: an answer names both, so one for another request, or for a
    /// prompt already replaced, finds nothing.
    public struct ID: Hashable, Sendable, CustomStringConvertible {
        public var request: UInt32
        public var prompt: UInt32

        public init(request: UInt32, prompt: UInt32) {
            self.request = request
            self.prompt = prompt
        }

        public var description: String { "\(request)/\(prompt)" }
    }

    public var id: ID
    public var prompt: PairingPrompt
    /// When an unanswered question ends the pairing (`timedOut(.answer)`);
    /// nil for a passkey display, which waits for the accessory instead.
    public var deadline: MonotonicInstant?

    public init(id: ID, prompt: PairingPrompt, deadline: MonotonicInstant?) {
        self.id = id
        self.prompt = prompt
        self.deadline = deadline
    }
}
