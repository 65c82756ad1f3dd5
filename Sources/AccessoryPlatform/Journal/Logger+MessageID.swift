import AccessoryCore
import Logging

extension Logger {
    /// Logs an operator-relevant event, tagged with its stable MESSAGE_ID.
    public func log(
        _ event: MessageID, level: Logger.Level, _ message: @autoclosure () -> Logger.Message,
        metadata: Logger.Metadata = [:],
        file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        var tagged = metadata
        tagged[MessageID.metadataKey] = .string(event.rawValue)
        log(level: level, message(), metadata: tagged, file: file, function: function, line: line)
    }
}
