/// A D-Bus error reply: a dotted error name and a human-readable message.
public struct BusError: Error, Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name): \(message)" }

    public static func invalidArguments(_ message: String) -> BusError {
        BusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }

    /// The standard name for "more than the receiver accepts" (a cap on
    /// entries, lengths or sizes), so a reader can tell a limit from a mistake.
    public static let limitsExceededName = "org.freedesktop.DBus.Error.LimitsExceeded"

    public static func limitsExceeded(_ message: String) -> BusError {
        BusError(name: limitsExceededName, message: message)
    }
}
