import Glibc

/// The notes accessoryd left on the app's wake socket (`WakeSocket=` in its
/// manifest), which systemd passes as descriptor 3 (`LISTEN_FDS`) to the
/// service it started for the connection: one `KEY=value` line each
/// (`ACCESSORY=`, `REASON=`, `RSSI=`, `ADVERTISEMENT=`), one note a connection.
/// Taken before anything else: a connection is there to be accepted once.
enum WakeNotes {
    static let firstDescriptor: Int32 = 3
    /// A note is a few lines; anything longer is cut here.
    static let maximumNoteBytes = 4096

    /// Empty when systemd passed no socket to this process.
    static func take() -> [[String: String]] {
        guard let pid = getenv("LISTEN_PID").map({ String(cString: $0) }), pid == "\(getpid())",
              let count = getenv("LISTEN_FDS").map({ String(cString: $0) }), count == "1"
        else { return [] }
        var notes: [[String: String]] = []
        // Non-blocking: accept ends with EAGAIN once every waiting connection is taken.
        let flags = fcntl(firstDescriptor, F_GETFL)
        guard flags >= 0, fcntl(firstDescriptor, F_SETFL, flags | O_NONBLOCK) == 0 else { return [] }
        while true {
            let connection = accept(firstDescriptor, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return notes  // EAGAIN: every waiting connection taken
            }
            notes.append(parse(readAll(connection)))
            close(connection)
        }
    }

    /// Until the writer closes, at most `maximumNoteBytes`, waiting at most 5 s for each part.
    private static func readAll(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while bytes.count < maximumNoteBytes {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, 5000)
            if polled < 0, errno == EINTR { continue }
            guard polled > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += buffer[0..<count]
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        return Array(bytes.prefix(maximumNoteBytes))
    }

    static func parse(_ bytes: [UInt8]) -> [String: String] {
        var note: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            note[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return note
    }
}
