import AccessoryCore
import AccessoryPlatform
import AccessoryWire

extension AccessorySetupError {
    /// An error reply: the agent's own errors by their code, with the agent's
    /// message as the reason; any other D-Bus error (no agent on the bus,
    /// access denied, a timeout) is `unknown`, keeping the bus's name and message.
    init(_ error: BusError) {
        if let code = BusErrorNames.code(ofName: error.name) {
            self.init(code, reason: error.message.isEmpty ? nil : .message(error.message))
        } else {
            self.init(.unknown, reason: .message("\(error.name): \(error.message)"))
        }
    }

    /// The error a signal names (`PickerDidDismiss(s error, s message)`): a
    /// code's name, or the full error name; nil when empty, which means none.
    init?(signalError name: String, message: String) {
        guard !name.isEmpty else { return nil }
        if let code = BusErrorNames.code(named: name) {
            self.init(code, reason: message.isEmpty ? nil : .message(message))
        } else {
            self.init(BusError(name: name, message: message))
        }
    }
}
