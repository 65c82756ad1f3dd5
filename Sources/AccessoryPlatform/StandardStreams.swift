import Glibc

/// Writes text to file descriptor 2 unbuffered: the last resort when the
/// journal cannot be reached, and the console log target.
public enum StandardError {
    public static func write(_ text: String) { writeAll(text, to: 2) }

    public static var isTerminal: Bool { isatty(2) == 1 }
}

/// Unbuffered writes on file descriptor 1: each call's text reaches a pipe
/// as it is written (`--monitor` gathers its lines and writes them together).
public enum StandardOutput {
    public static func write(_ text: String) { writeAll(text, to: 1) }

    public static func write(_ bytes: UnsafeRawBufferPointer) { writeAll(bytes, to: 1) }
}

private func writeAll(_ text: String, to fd: Int32) {
    Array(text.utf8).withUnsafeBytes { writeAll($0, to: fd) }
}

private func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
        let written = retryingOnInterrupt { Glibc.write(fd, base + offset, bytes.count - offset) }
        guard written > 0 else { return }
        offset += written
    }
}
