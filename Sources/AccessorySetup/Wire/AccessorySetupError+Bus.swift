import AccessoryCore
import AccessoryPlatform

extension AccessorySetupError {
    /// The agent names its errors `org.accessoryagent.Error.` + the code's name.
    static let busErrorPrefix = "org.accessoryagent.Error."

    /// An error reply: the agent's own errors by their code, with the agent's
    /// message as the reason; any other D-Bus error (no agent on the bus,
    /// access denied, a timeout) is `unknown`, keeping the bus's name and message.
    init(_ error: BusError) {
        if error.name.hasPrefix(Self.busErrorPrefix),
            let code = Code(name: String(error.name.dropFirst(Self.busErrorPrefix.count)))
        {
            self.init(code, reason: error.message.isEmpty ? nil : .message(error.message))
        } else {
            self.init(.unknown, reason: .message("\(error.name): \(error.message)"))
        }
    }

    /// The error a signal names (`PickerDidDismiss(s error, s message)`): a
    /// code's name, or the full error name; nil when empty, which means none.
    init?(signalError name: String, message: String) {
        guard !name.isEmpty else { return nil }
        if let code = Code(name: name) {
            self.init(code, reason: message.isEmpty ? nil : .message(message))
        } else {
            self.init(BusError(name: name, message: message))
        }
    }
}

extension AccessorySetupError.Code {
    /// The code whose name is `name` (`userCancelled`).
    init?(name: String) {
        guard let code = Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = code
    }
}
