import Glibc

/// Directory listings and whole files, through libc alone (no Foundation,
/// so the arm64 binary stays small and quick to link).
enum CorpusFiles {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The names in a directory, sorted bytewise, without `.` and `..`;
    /// directories or regular files only, as asked.
    static func names(in directory: String, directories: Bool) throws(Failure) -> [String] {
        guard let stream = opendir(directory) else { throw Failure(description: "cannot open \(directory): errno \(errno)") }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            var status = stat()
            guard stat(directory + "/" + name, &status) == 0 else { continue }
            let isDirectory = status.st_mode & S_IFMT == S_IFDIR
            let isFile = status.st_mode & S_IFMT == S_IFREG
            if directories ? isDirectory : isFile { names.append(name) }
        }
        return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    static func contents(of path: String) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(description: "cannot open \(path): errno \(errno)") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "cannot read \(path): errno \(errno)")
            }
            bytes += chunk[..<count]
        }
    }
}
