import Foundation
import Testing

/// `accessoryd --replay FILE --monitor` as an administrator runs it: the same
/// lines as the in-process replay, then exit 0 at the end of the file.
@Suite struct ReplayProcessTests {
    func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonProcessTests.daemonPath)
        process.arguments = arguments + ["--log-target=console"]
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    @Test func replayPrintsTheAdvertisementsAndExits() throws {
        let capture = ReplayTests.fixtures.appendingPathComponent("lab-passive-scan.btsnoop").path
        let result = try run(["--replay", capture, "--replay-speed", "max", "--monitor"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines == (try ReplayTests.monitorLines("lab-passive-scan.btsnoop")))
        #expect(result.stderr.contains("Replayed 19 HCI events: 2 advertisements"))
    }

    @Test func notACaptureIsAnError() throws {
        let result = try run(["--replay", #filePath, "--monitor"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("not a btsnoop capture"))
    }

    @Test func replaySpeedNeedsReplay() throws {
        let result = try run(["--replay-speed", "max"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--replay-speed goes with --replay"))
    }
}
