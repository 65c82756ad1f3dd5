import AccessoryCodecs
import Foundation
import Testing
import TestSupport

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

    @Test func serveNeedsReplayAndLoopNeedsServe() throws {
        let serve = try run(["--serve"])
        #expect(serve.status == 64)
        #expect(serve.stderr.contains("--serve goes with --replay"))
        let capture = ReplayTests.fixtures.appendingPathComponent("lab-passive-scan.btsnoop").path
        let loop = try run(["--replay", capture, "--replay-loop", "--monitor"])
        #expect(loop.status == 64)
        #expect(loop.stderr.contains("--replay-loop goes with --replay --serve"))
    }

    /// A capture that cannot be served ends the start, before any bus is tried.
    @Test func servingACaptureThatIsNoneFails() throws {
        let result = try run(["--replay", #filePath, "--serve", "--config", "/dev/null"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("not a btsnoop capture"))
    }

    @Test func replaySpeedNeedsReplay() throws {
        let result = try run(["--replay-speed", "max"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--replay-speed goes with --replay"))
    }
}

/// The acceptance of issue 12 (point 1): `accessoryd --replay FILE --monitor`
/// shows a device whose last AD structure is cut short, with the structures
/// before it, and the summary counts the structure dropped.
@Suite struct DamagedAdvertisementReplayTests {
    @Test func monitorShowsTheStructuresBeforeATruncatedOne() throws {
        // The AD of a device sending company 0x03C3's data, flags, then a
        // length octet 0x20 with nothing after it: published in
        // Bluetooth-Devices/bluetooth-data-tools tests/test_gap.py
        // (test_parse_advertisement_data_recovers_from_corrupt_data_2). The
        // address and RSSI around it are ours.
        let ad: [UInt8] = [
            0x1A, 0xFF, 0xC3, 0x03, 0x5F, 0xEF, 0x35, 0x42, 0xB0, 0x49, 0x0F, 0xBB, 0x00, 0x26, 0x01, 0x00, 0x6D, 0x2A,
            0xB2, 0x63, 0xD8, 0xB0, 0x02, 0x0A, 0x00, 0x00, 0xF2, 0x02, 0x01, 0x06, 0x20,
        ]
        // LE Advertising Report: ADV_NONCONN_IND, random C0:FF:EE:00:00:01, RSSI -75.
        let event: [UInt8] = [0x3E, UInt8(12 + ad.count), 0x02, 0x01, 0x03, 0x01, 0x01, 0x00, 0x00, 0xEE, 0xFF, 0xC0,
                              UInt8(ad.count)] + ad + [0xB5]
        let capture = try BtsnoopWriter(datalink: .linuxMonitor).file([
            BtsnoopRecord(timestamp: BtsnoopRecord.unixEpochOffset, controllerIndex: 0, opcode: .eventPacket, packet: event)
        ])
        let scratch = try ScratchDirectory("replay-damaged")
        let path = scratch.path("truncated.btsnoop")
        try Data(capture).write(to: URL(fileURLWithPath: path))

        let result = try ReplayProcessTests().run(["--replay", path, "--replay-speed", "max", "--monitor"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == [
            "bluetooth hci0 C0:FF:EE:00:00:01/random rssi=-75 connectable=no scannable=no"
                + " manufacturer=03c3:5fef3542b0490fbb002601006d2ab263d8b0020a0000f2 flags=0x06"
        ])
        #expect(result.stderr.contains("Replayed 1 HCI events: 1 advertisements, dropped structureLengthPastEnd=1"))
    }
}
