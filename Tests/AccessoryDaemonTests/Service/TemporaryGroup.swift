import AccessoryPlatform
import Foundation

/// A real system group that lives as long as the test needs it: created with
/// `groupadd --system` (the tests run as root), removed with `groupdel`.
final class TemporaryGroup {
    let name: String
    private(set) var gid: UInt32?

    /// A name no real group has (`aatest-` and random hex); the group is not created yet.
    init() {
        name = "aatest-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
    }

    deinit { if gid != nil { try? delete() } }

    /// Creates the group and returns its gid.
    @discardableResult
    func create() throws -> UInt32 {
        try Self.run("/usr/sbin/groupadd", ["--system", name])
        guard let gid = try UnixGroup.gid(named: name) else { throw Failure("groupadd did not create \(name)") }
        self.gid = gid
        return gid
    }

    func delete() throws {
        try Self.run("/usr/sbin/groupdel", [name])
        gid = nil
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw Failure("\(tool) \(arguments.joined(separator: " ")) failed: \(text)")
        }
    }
}
