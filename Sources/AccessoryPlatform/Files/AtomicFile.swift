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
            let written = retryingOnInterrupt { bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) } }
            if written < 0 { throw SystemError.last("write(\(temporary))") }
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
        try syncDirectory(directory)
    }

    /// Makes a directory's entries (a rename, a new file or subdirectory) durable.
    public static func syncDirectory(_ directory: String) throws(SystemError) {
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryFD >= 0 else { throw SystemError.last("open(\(directory))") }
        defer { close(directoryFD) }
        guard fsync(directoryFD) == 0 else { throw SystemError.last("fsync(\(directory))") }
    }

    /// Removes the temporary files `replace` leaves for `path` when the
    /// process dies between creating one and renaming it (a crash, a power
    /// cut). Only call it when no `replace` of `path` is under way.
    public static func removeLeftovers(of path: String) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let prefix = (path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path) + ".tmp-"
        guard let handle = opendir(directory) else { return }
        defer { closedir(handle) }
        var leftovers: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(prefix), name.dropFirst(prefix.count).allSatisfy(\.isNumber) { leftovers.append(name) }
        }
        for name in leftovers { unlink("\(directory)/\(name)") }
    }

    /// Moves a file aside under a new name, keeping it for inspection.
    public static func setAside(_ path: String, as newPath: String) throws(SystemError) {
        guard rename(path, newPath) == 0 else { throw SystemError.last("rename(\(path), \(newPath))") }
    }

    /// Moves a damaged store aside as `PATH.corrupt` (`.corrupt-2`, … when
    /// earlier ones are kept), for the administrator; returns that name.
    public static func setAsideAsCorrupt(_ path: String) throws(SystemError) -> String {
        var aside = "\(path).corrupt"
        var attempt = 1
        while FileSystem.exists(aside) {
            attempt += 1
            aside = "\(path).corrupt-\(attempt)"
        }
        try setAside(path, as: aside)
        return aside
    }
}
