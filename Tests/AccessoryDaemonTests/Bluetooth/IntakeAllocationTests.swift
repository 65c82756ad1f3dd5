import Foundation
import Testing
import TestSupport

/// Counts heap allocations, not time. accessory-bench (the build beside this
/// test bundle) runs the intake from HCI event bytes through the ingest, the
/// pipeline, the registry and matching under valgrind's DHAT: once with every
/// device new, once after a first pass made every device known (and, for
/// changing payloads, after one and after two such passes). The difference
/// is what the known devices' reports allocated.
@Suite struct IntakeAllocationTests {
    static let devices = 300

    static var benchPath: String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("accessory-bench").path
    }

    /// Runs `command` to the end and returns its standard error.
    static func run(_ command: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(command): \(text)")
        return text
    }

    /// The heap blocks DHAT saw allocated in one run of accessory-bench.
    static func blocks(_ arguments: [String]) throws -> Int {
        let report = try run(["valgrind", "--tool=dhat", "--dhat-out-file=/dev/null", benchPath] + arguments)
        // "==123== Total:     899,663 bytes in 12,013 blocks"
        let line = try #require(report.split(separator: "\n").first { $0.contains("Total:") }, "no DHAT total in: \(report)")
        let words = line.split(separator: " ")
        let count = try #require(words.firstIndex(of: "blocks").map { words[$0 - 1] })
        return try #require(Int(count.filter { $0 != "," }))
    }

    @Test func aKnownDeviceResendingItsPayloadAllocatesNothing() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.benchPath), "no accessory-bench beside the tests")
        let scratch = try ScratchDirectory("intake-allocations")
        let corpus = scratch.path("corpus.bin")
        _ = try Self.run([Self.benchPath, "corpus", corpus, "--count", "\(Self.devices)"])
        let intake = ["intake", corpus, "--descriptors", "100", "--limit", "\(Self.devices)", "--runs", "0"]

        // Each device sends one payload, always the same one.
        // Both runs take the same options (`--warm 0` too), so parsing them allocates the same.
        let allNew = try Self.blocks(intake + ["--devices", "\(Self.devices)", "--warm", "0"])
        let thenKnown = try Self.blocks(intake + ["--devices", "\(Self.devices)", "--warm", "1"])
        #expect(thenKnown - allNew == 0, "\(thenKnown - allNew) heap blocks for \(Self.devices) repeated reports")

        // The count is not blind: a new device does allocate (its entry, its
        // stored advertisement). One device sending every payload in turn is
        // new once; 300 devices are new 300 times.
        let oneDevice = try Self.blocks(intake + ["--devices", "1", "--warm", "0"])
        #expect(allNew - oneDevice > 0, "\(allNew - oneDevice) heap blocks for \(Self.devices - 1) more new devices")
    }

    /// The second case: a known device whose payload changes on every
    /// report (each device sends three payloads in turn) is parsed into reused
    /// storage, merged where its advertisement lies and matched into a reused
    /// buffer. Its first pass may grow that storage; from then on nothing.
    @Test func aKnownDeviceSendingAChangedPayloadAllocatesNothing() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.benchPath), "no accessory-bench beside the tests")
        let scratch = try ScratchDirectory("intake-allocations-changed")
        let corpus = scratch.path("corpus.bin")
        _ = try Self.run([Self.benchPath, "corpus", corpus, "--count", "\(Self.devices)"])
        let changing = Self.devices / 3
        let intake = ["intake", corpus, "--descriptors", "100", "--limit", "\(Self.devices)", "--runs", "0",
                      "--devices", "\(changing)"]
        let once = try Self.blocks(intake + ["--warm", "1"])
        let twice = try Self.blocks(intake + ["--warm", "2"])
        #expect(twice - once == 0, "\(twice - once) heap blocks for \(Self.devices) changed payloads of known devices")
    }
}
