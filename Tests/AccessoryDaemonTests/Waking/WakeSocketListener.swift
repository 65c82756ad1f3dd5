import Glibc
import Testing
import AccessoryPlatform

/// The app's side of a wake socket in tests: listening as systemd does, and the notes accessoryd left.
enum WakeSocketListener {
    /// A listening stream socket at `path`, as systemd makes it for `ListenStream=`.
    static func listen(at path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, SocketType.stream | SocketType.closeOnExec | SocketType.nonBlocking, 0)
        try #require(fd >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        try #require(Glibc.listen(fd, 8) == 0)
        return fd
    }

    /// Every note waiting on `listener`, each as its text.
    static func accepted(_ listener: Int32) -> [String] {
        var notes: [String] = []
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return notes }
            var buffer = [UInt8](repeating: 0, count: 8192)
            var text: [UInt8] = []
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                text += buffer[0..<count]
            }
            close(connection)
            notes.append(String(decoding: text, as: UTF8.self))
        }
    }
}
