import AccessoryCore
import AccessoryDaemon

/// accessoryd.conf and its drop-ins: the key-file syntax, then the daemon's
/// reading of its sections and keys.
let keyFileTarget = FuzzTarget(name: "key-file") { bytes in
    guard let file = try? KeyFile(parsing: bytes, source: "fuzz.conf") else { return }
    let lineCount = bytes.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    var previousLine = 0
    for entry in file.entries {
        expect(file.sections.contains(entry.section), "an entry in a section the file does not list")
        expect(entry.line > previousLine && entry.line <= lineCount, "entry lines out of order or beyond the file")
        previousLine = entry.line
    }
    var configuration = DaemonConfiguration()
    try? configuration.apply(file)
}
