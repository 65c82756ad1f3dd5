import AccessoryCore
import Foundation
import Glibc
import Testing
import TestSupport
@testable import AccessoryDaemon

/// The grant store under faults the real machine produces: a state
/// directory that is full (a real, small tmpfs), the leftovers of a power
/// cut, and a state directory accessoryd makes itself (its creation must be
/// on disk before a grant in it is acknowledged). The real accessoryd on a
/// private bus; the administrator approves with busctl, as accessoryctl does.
@Suite(.serialized) struct GrantStoreFaultTests {
    let scratch: ScratchDirectory
    var directory: String { scratch.path }

    init() throws {
        scratch = try ScratchDirectory("grant-faults")
        try FileManager.default.createDirectory(atPath: directory + "/apps", withIntermediateDirectories: true)
        try "".write(toFile: directory + "/accessoryd.conf", atomically: true, encoding: .utf8)
        try "[App]\nName=fault-test\nUser=root\nSupports=Bluetooth\n"
            .write(toFile: directory + "/apps/fault-test.conf", atomically: true, encoding: .utf8)
    }

    /// accessoryd (under `wrapper`, e.g. strace, when given) on `bus`, ready.
    func startDaemon(_ bus: PrivateBus, state: String, wrapper: [String] = []) throws -> (Process, Pipe) {
        try AccessorydProcess.startReady(config: directory + "/accessoryd.conf", apps: directory + "/apps", bus: bus,
                                         state: state, notifyDirectory: directory, wrapper: wrapper)
    }

    /// busctl to completion: exit status, stdout, stderr.
    func busctl(_ bus: PrivateBus, _ arguments: [String]) throws -> (Int32, String, String) {
        let (process, out, err) = try bus.busctl(arguments)
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output, error)
    }

    static let manager = ["org.accessoryagent", "/org/accessoryagent"]

    /// A persistent session of the app's, activated.
    func openSession(_ bus: PrivateBus) throws -> String {
        let (status, output, error) = try busctl(bus, ["call"] + Self.manager + ["org.accessoryagent.Manager1", "OpenPersistentSession"])
        #expect(status == 0, "\(error)")
        let path = try #require(output.split(separator: "\"").dropFirst().first.map(String.init))
        _ = try busctl(bus, ["call", "org.accessoryagent", path, "org.accessoryagent.Session1", "Activate"])
        return path
    }

    /// The app asks to migrate `address`; returns the pending request's number.
    func migrate(_ bus: PrivateBus, session: String, address: String) throws -> String {
        let (status, _, error) = try busctl(bus, ["call", "org.accessoryagent", session, "org.accessoryagent.Session1", "Migrate",
                                                  "a(sssa{ss})", "1", "Sensor \(address)", address, "", "0"])
        #expect(status == 0, "\(error)")
        let (_, requests, _) = try busctl(bus, ["call"] + Self.manager + ["org.accessoryagent.Admin1", "ListRequests"])
        // a(ussasuasi) 1 7 "fault-test" "migration" …: the first number after the count.
        let words = requests.split(separator: " ")
        return try #require(words.count > 2 ? String(words[2]) : nil, "no pending request: \(requests)")
    }

    /// The administrator's approval: busctl's exit status and what it printed on stderr.
    func approve(_ bus: PrivateBus, request: String) throws -> (Int32, String) {
        let (status, _, error) = try busctl(bus, ["call"] + Self.manager + ["org.accessoryagent.Admin1", "Approve", "uus", request, "0", ""])
        return (status, error)
    }

    func listed(_ bus: PrivateBus) throws -> String {
        try busctl(bus, ["call"] + Self.manager + ["org.accessoryagent.Admin1", "ListAccessories"]).1
    }

    // MARK: ENOSPC

    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func aFullStateDirectoryRefusesTheGrantClearlyAndKeepsThePreviousStore() throws {
        let state = directory + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        // A real file system with room for little more than the store (tmpfs counts whole pages).
        let mounted = "size=64k,mode=0700".withCString { mount("tmpfs", state, "tmpfs", 0, $0) }
        try #require(mounted == 0, "mount: \(String(cString: strerror(errno)))")
        defer { umount2(state, Int32(MNT_DETACH)) }

        let bus = try PrivateBus()
        let (daemon, stderr) = try startDaemon(bus, state: state)
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) }; daemon.waitUntilExit() }
        let session = try openSession(bus)
        for address in ["C0:FF:EE:00:00:01", "C0:FF:EE:00:00:02"] {
            let (status, error) = try approve(bus, request: try migrate(bus, session: session, address: address))
            #expect(status == 0, "\(error)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: state + "/grants"))

        // Fill the file system to the last block.
        let filler = open(state + "/filler", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(filler >= 0)
        let block = [UInt8](repeating: 0x55, count: 4096)
        while block.withUnsafeBytes({ write(filler, $0.baseAddress, $0.count) }) > 0 {}
        #expect(errno == ENOSPC)
        while write(filler, block, 1) > 0 {}
        close(filler)

        let request = try migrate(bus, session: session, address: "C0:FF:EE:00:00:03")
        let (status, error) = try approve(bus, request: request)
        #expect(status != 0, "the approval of a grant that cannot be stored must fail")
        #expect(error.contains("cannot write the grant store"), "\(error)")
        #expect(error.contains("No space left on device"), "\(error)")

        // The previous store is there, byte for byte, and nothing half-written beside it.
        #expect(try Data(contentsOf: URL(fileURLWithPath: state + "/grants")) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: state).sorted() == ["filler", "grants"])
        #expect(try GrantStore(directory: state).load() == .loaded(count: 2))
        #expect(daemon.isRunning)
        #expect(try listed(bus).hasPrefix("a(sssssbi) 2 "))

        // Room again: the same request goes through.
        unlink(state + "/filler")
        let (retried, retryError) = try approve(bus, request: request)
        #expect(retried == 0, "\(retryError)")
        #expect(try listed(bus).hasPrefix("a(sssssbi) 3 "))
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        #expect(daemon.terminationStatus == 0)
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("No space left on device"), "the journal says why too: \(log)")
    }

    // MARK: After a power cut

    @Test func temporaryFilesAPowerCutLeftAreRemovedAtLoad() throws {
        let directory = self.directory + "/store"
        let store = GrantStore(directory: directory)
        try store.save(Grant(accessory: AccessoryID(1), app: "fault-test", displayName: "One", state: .authorized))
        // What a cut between the temporary file's creation and its rename leaves,
        // by an accessoryd of another pid (complete or not).
        try Data("# accessoryd grant store: half".utf8).write(to: URL(fileURLWithPath: directory + "/grants.tmp-4242"))
        try Data().write(to: URL(fileURLWithPath: directory + "/grants.tmp-17"))
        try Data("not ours".utf8).write(to: URL(fileURLWithPath: directory + "/grants.txt"))

        let reopened = GrantStore(directory: directory)
        #expect(try reopened.load() == .loaded(count: 1))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["grants", "grants.txt"])
    }

    // MARK: The state directory's own creation

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "needs strace"))
    func aStateDirectoryAccessorydMakesIsDurableBeforeTheFirstGrantIsAcknowledged() throws {
        // The parent exists (as /var/lib does), the state directory does not.
        let parent = directory + "/lib"
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let state = parent + "/accessoryd"
        let trace = directory + "/strace.log"
        let bus = try PrivateBus()
        let (daemon, _) = try startDaemon(bus, state: state, wrapper: [
            "/usr/bin/strace", "-f", "-qq", "-o", trace, "-e", "trace=mkdir,mkdirat,open,openat,fsync,fdatasync,rename,renameat,renameat2",
        ])
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) }; daemon.waitUntilExit() }
        let session = try openSession(bus)
        let (status, error) = try approve(bus, request: try migrate(bus, session: session, address: "C0:FF:EE:00:01:01"))
        #expect(status == 0, "\(error)")
        // SIGTERM to accessoryd itself (strace would only detach); strace ends with it.
        let children = (try? String(contentsOfFile: "/proc/\(daemon.processIdentifier)/task/\(daemon.processIdentifier)/children",
                                    encoding: .utf8)) ?? ""
        for child in children.split(separator: " ").compactMap({ pid_t($0) }) { kill(child, SIGTERM) }
        daemon.waitUntilExit()

        // The system calls in order: mkdir of the state directory, then an fsync of its
        // parent, before the store is renamed into place (and so before the reply).
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
        let made = try #require(lines.firstIndex { $0.contains("mkdir(\"\(state)\"") && $0.hasSuffix("= 0") },
                                "accessoryd made the state directory:\n\(lines.joined(separator: "\n"))")
        let renamed = try #require(lines.firstIndex { $0.contains("rename") && $0.contains("\(state)/grants\"") },
                                   "the store was renamed into place")
        let parentOpens = lines.indices.filter { index in
            index > made && index < renamed && lines[index].contains("\"\(parent)\"") && lines[index].contains("O_DIRECTORY")
        }
        let synced = parentOpens.contains { index in
            guard let fd = lines[index].split(separator: "=").last?.trimmingCharacters(in: .whitespaces) else { return false }
            return lines[index..<renamed].contains { $0.contains("fsync(\(fd))") && $0.hasSuffix("= 0") }
        }
        let excerpt = lines[made...renamed].joined(separator: "\n")
        #expect(synced, "the parent of the new state directory is fsync'd before the first grant is stored:\n\(excerpt)")
    }
}
