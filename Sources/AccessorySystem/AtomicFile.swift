import Glibc

/// Replaces a file so that, whatever happens (a crash, a power cut), the
/// path holds either the old content or the new, complete content: write a
/// temporary file beside it, fsync it, rename it over the old one, fsync
/// the directory so the rename itself is on disk.
public enum AtomicFile {
    public static func replace(_ path: String, with bytes: [UInt8], mode: mode_t = 0o600) throws(SystemError) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw SystemError.last("open(\(temporary))") }
        var closed = false
        defer { if !closed { close(fd); unlink(temporary) } }

        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw SystemError.last("write(\(temporary))")
            }
            offset += written
        }
        guard fsync(fd) == 0 else { throw SystemError.last("fsync(\(temporary))") }
        closed = true
        guard close(fd) == 0 else {
            unlink(temporary)
            throw SystemError.last("close(\(temporary))")
        }
        guard rename(temporary, path) == 0 else {
            let error = SystemError.last("rename(\(temporary), \(path))")
            unlink(temporary)
            throw error
        }
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryFD >= 0 else { throw SystemError.last("open(\(directory))") }
        defer { close(directoryFD) }
        guard fsync(directoryFD) == 0 else { throw SystemError.last("fsync(\(directory))") }
    }

    /// Moves a file aside under a new name, keeping it for inspection.
    public static func setAside(_ path: String, as newPath: String) throws(SystemError) {
        guard rename(path, newPath) == 0 else { throw SystemError.last("rename(\(path), \(newPath))") }
    }
}
