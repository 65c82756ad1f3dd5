import Glibc

/// Reading configuration files and listing their directories.
public enum FileSystem {
    /// The file's bytes, or nil when it does not exist. Any other failure
    /// (permissions, a directory in its place) is an error: a configuration
    /// that exists but cannot be read must not be silently ignored.
    public static func readFileIfPresent(_ path: String, limit: Int = 1 << 20) throws(SystemError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw SystemError.last("open(\(path))")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        // Read straight into room for the whole file (one more octet, to see
        // its end): grown chunk by chunk and copied from each chunk, a
        // replayed capture cost ~220 instructions a record (callgrind, issue 25).
        var status = stat()
        if fstat(fd, &status) == 0, status.st_size > 0 {
            let room = min(Int(status.st_size), limit) + 1
            var failure: Int32 = 0
            bytes = [UInt8](unsafeUninitializedCapacity: room) { buffer, initialized in
                while initialized < room {
                    let count = retryingOnInterrupt { read(fd, buffer.baseAddress! + initialized, room - initialized) }
                    if count < 0 { failure = errno }
                    if count <= 0 { return }
                    initialized += count
                }
            }
            if failure != 0 { throw SystemError(operation: "read(\(path))", errno: failure) }
            // Shorter than the room: the end was seen.
            if bytes.count < room { return bytes }
            guard bytes.count <= limit else { throw SystemError(operation: "read(\(path))", errno: EFBIG) }
        }
        // Past the size it had (or none told): chunk by chunk.
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = retryingOnInterrupt { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
            if count < 0 { throw SystemError.last("read(\(path))") }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            guard bytes.count <= limit else { throw SystemError(operation: "read(\(path))", errno: EFBIG) }
        }
    }

    /// Whether something is at `path` (a file, a directory, anything).
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Names in `directory` ending in `suffix`, sorted bytewise (the order
    /// systemd applies drop-ins in); nil when the directory does not exist.
    public static func entries(of directory: String, withSuffix suffix: String) throws(SystemError) -> [String]? {
        guard let handle = opendir(directory) else {
            if errno == ENOENT { return nil }
            throw SystemError.last("opendir(\(directory))")
        }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(suffix), !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
}
