import Glibc

/// Writes text to file descriptor 2 unbuffered: the last resort when the
/// journal cannot be reached, and the console log target.
public enum StandardError {
    public static func write(_ text: String) { writeAll(text, to: 2) }

    public static var isTerminal: Bool { isatty(2) == 1 }
}

/// Unbuffered lines on file descriptor 1, so `--monitor` output reaches a
/// pipe line by line as it happens.
public enum StandardOutput {
    public static func write(_ text: String) { writeAll(text, to: 1) }
}

private func writeAll(_ text: String, to fd: Int32) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = retryingOnInterrupt { bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) } }
        guard written > 0 else { return }
        offset += written
    }
}
