import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Foundation
import Glibc
import Testing
import TestSupport
@testable import AccessoryDaemon

/// The real accessoryd, granting accessories as fast as the administrator
/// approves them, killed with SIGKILL at a random moment, again and again:
/// every grant whose approval was acknowledged is there after the restart.
@Suite(.serialized) struct GrantStoreCrashTests {
    /// The daemon's state, configuration and sockets; each test stops its daemons before it goes.
    let scratch: ScratchDirectory
    var directory: String { scratch.path }
    var state: String { directory + "/state" }
    var acknowledged: String { directory + "/acknowledged" }

    init() throws {
        scratch = try ScratchDirectory("crash")
        for sub in ["state", "apps"] {
            try FileManager.default.createDirectory(atPath: directory + "/" + sub, withIntermediateDirectories: true)
        }
        try "".write(toFile: directory + "/accessoryd.conf", atomically: true, encoding: .utf8)
        try "[App]\nName=crash-test\nUser=root\nSupports=Bluetooth\n"
            .write(toFile: directory + "/apps/crash-test.conf", atomically: true, encoding: .utf8)
    }

    /// accessoryd on `bus`, ready.
    func startDaemon(_ bus: PrivateBus) throws -> (Process, Pipe) {
        try AccessorydProcess.startReady(config: directory + "/accessoryd.conf", apps: directory + "/apps", bus: bus,
                                         state: state, notifyDirectory: directory)
    }

    /// Migrates one known accessory after another, each approved by the
    /// administrator, on a thread of its own with its own connection (the
    /// daemon is another process); writes each acknowledged address down
    /// (fsync'd) before asking for the next. Stops when the daemon goes, and
    /// then signals `done`.
    static func drive(_ address: String, from first: Int, acknowledged: String, done: DispatchSemaphore) throws {
        try DetachedThread.start {
            defer { done.signal() }
            if !FileManager.default.fileExists(atPath: acknowledged) {
                FileManager.default.createFile(atPath: acknowledged, contents: nil)
            }
            guard let bus = try? BusConnection(address: address, loop: nil),
                  let out = FileHandle(forUpdatingAtPath: acknowledged) else { return }
            out.seekToEndOfFile()
            func call(_ path: String, _ interface: String, _ member: String,
                      _ build: (BusReply) -> Void = { _ in }) throws(BusError) -> BusMessage {
                try bus.call(destination: BusNames.service, path: path, interface: interface, member: member, build)
            }
            do throws(BusError) {
                let session = try call(BusNames.root, BusNames.manager, Manager1.openSession.name).readObjectPath()
                _ = try call(session, BusNames.session, Session1.activate.name)
                for i in first..<(first + 100_000) {
                    let address = String(format: "C0:FF:EE:%02X:%02X:%02X", i >> 16 & 255, i >> 8 & 255, i & 255)
                    let item = WireMigrationItem(name: "Sensor \(i)", bluetoothAddress: address, ssid: "", descriptor: [])
                    _ = try call(session, BusNames.session, Session1.migrate.name) { $0.append(records: [item]) }
                    let requests = try PlainArguments(try call(BusNames.root, BusNames.admin, Admin1.listRequests.name))
                        .records(of: WireRequestRow.self, "requests")
                    guard let request = requests.first?.number else { return }
                    _ = try call(BusNames.root, BusNames.admin, Admin1.approve.name) { _ = $0.append(request).append(UInt32(0)).append("") }
                    out.write(Data((address + "\n").utf8))
                    fsync(out.fileDescriptor)
                }
            } catch {
                // The daemon went: what was acknowledged is written down.
            }
        }
    }

    /// How many grants the driver has written down so far.
    func acknowledgedCount() -> Int {
        ((try? String(contentsOfFile: acknowledged, encoding: .utf8))?.split(separator: "\n").count) ?? 0
    }

    /// Whether the driver already stopped (it gave up early); keeps its signal for the later wait.
    func driverStopped(_ driver: DispatchSemaphore) -> Bool {
        guard driver.wait(timeout: .now()) == .success else { return false }
        driver.signal()
        return true
    }

    @Test func everyAcknowledgedGrantSurvivesSIGKILL() throws {
        let bus = try PrivateBus()
        var random = SplitMix64(seed: 6)
        var next = 0
        for round in 1...8 {
            let (daemon, _) = try startDaemon(bus)
            let driver = DispatchSemaphore(value: 0)
            try Self.drive(bus.address, from: next, acknowledged: acknowledged, done: driver)
            // Let it get a few grants through (how many is seeded, not timed: a loaded
            // machine must not decide whether anything was written), then pull the
            // plug, mid-write or not.
            let target = acknowledgedCount() + 1 + Int(random.next() % 6)
            while acknowledgedCount() < target && !driverStopped(driver) { usleep(2_000) }
            kill(daemon.processIdentifier, SIGKILL)
            daemon.waitUntilExit()
            driver.wait()

            let acked = (try? String(contentsOfFile: acknowledged, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
            next = acked.count + 1000 * round
            let store = GrantStore(directory: state)
            let outcome = try store.load()
            let count: Int
            switch outcome {
            case .loaded(let loaded): count = loaded
            case .empty where acked.isEmpty: count = 0  // killed before the first grant
            default:
                Issue.record("round \(round): the store did not load after SIGKILL: \(outcome)")
                return
            }
            let granted = Set(store.grants.values.compactMap { $0.bluetooth.map { "\($0.address)" } })
            let lost = acked.filter { !granted.contains($0) }
            #expect(lost.isEmpty, "round \(round): acknowledged grants lost: \(lost)")
            // Beyond those, at most the one in flight at each kill was written unacknowledged.
            #expect(count >= acked.count && count - acked.count <= round, "round \(round)")
            #expect(!FileManager.default.fileExists(atPath: state + "/grants.corrupt"))
        }
        let acked = (try? String(contentsOfFile: acknowledged, encoding: .utf8))?.split(separator: "\n") ?? []
        #expect(acked.count >= 8, "the driver should have got at least one grant through in every round")

        // A restarted daemon serves them all.
        let (daemon, _) = try startDaemon(bus)
        defer { kill(daemon.processIdentifier, SIGKILL); daemon.waitUntilExit() }
        let (lister, out, _) = try bus.start(["/usr/bin/busctl", "--address=\(bus.address)", "call", "org.accessoryagent",
                                              "/org/accessoryagent", "org.accessoryagent.Admin1", "ListAccessories"])
        lister.waitUntilExit()
        let listed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(listed.hasPrefix("a(sssssbi) \(GrantStore(directory: state).grantsCount())"))
    }

    @Test func aTruncatedStoreIsSetAsideAndReportedAndTheDaemonRuns() throws {
        let bus = try PrivateBus()
        let store = GrantStore(directory: state)
        for i in 1...3 {
            try store.save(Grant(accessory: AccessoryID(UInt64(i)), app: "crash-test", displayName: "Sensor \(i)", state: .authorized))
        }
        let path = state + "/grants"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))

        let (daemon, stderr) = try startDaemon(bus)
        #expect(daemon.isRunning)
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        #expect(daemon.terminationStatus == 0)
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("Grant store damaged (the file is truncated (no complete checksum line)); set aside as \(path).corrupt"))
        #expect(FileManager.default.fileExists(atPath: path + ".corrupt"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".corrupt")) == bytes.prefix(bytes.count / 2))
    }
}

extension GrantStore {
    /// How many grants the file on disk holds now.
    func grantsCount() -> Int {
        guard case .loaded(let count)? = try? load() else { return 0 }
        return count
    }
}
