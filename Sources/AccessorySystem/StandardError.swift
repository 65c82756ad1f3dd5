import Glibc

/// Writes text to file descriptor 2 unbuffered: the last resort when the
/// journal cannot be reached, and the console log target.
public enum StandardError {
    public static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
        bytes.removeAll()
    }

    public static var isTerminal: Bool { isatty(2) == 1 }
}
