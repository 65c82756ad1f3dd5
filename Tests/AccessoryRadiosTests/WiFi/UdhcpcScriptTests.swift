import Foundation
import Testing
import TestSupport

/// packaging/libexec/udhcpc-script, the script the package installs for
/// udhcpc -s, run by /bin/sh as udhcpc runs it, with an `ip` on PATH that
/// records its arguments instead of changing the machine's addresses.
@Suite struct UdhcpcScriptTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("packaging/libexec/udhcpc-script").path

    struct Run {
        let status: Int32
        let output: String
        let ipCalls: [String]
    }

    let scratch: ScratchDirectory

    init() throws {
        scratch = try ScratchDirectory("udhcpc-script")
        // Close-on-exec from the start (not Foundation's atomic write, whose
        // mkstemp descriptor is not): a child another test spawns meanwhile
        // (DHCPClientProcessTests) would keep it open for writing, and running
        // it would fail with ETXTBSY.
        try writeExecutable(scratch.path("ip"), "#!/bin/sh\necho \"$*\" >> \(scratch.path("ip-calls"))\n")
    }

    func run(_ event: String, _ variables: [String: String]) throws -> Run {
        try? FileManager.default.removeItem(atPath: scratch.path("ip-calls"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [Self.script, event]
        process.environment = ["PATH": "\(scratch.path):/usr/bin:/bin", "interface": "wlan9"]
            .merging(variables) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        let calls = (try? String(contentsOfFile: scratch.path("ip-calls"), encoding: .utf8)) ?? ""
        return Run(
            status: process.terminationStatus,
            output: String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            ipCalls: calls.split(separator: "\n").map(String.init))
    }

    @Test func aLeaseSetsOnlyTheAddressAndIsAnnounced() throws {
        let state = scratch.path("udhcpc-wlan9.address")
        let bound = try run("bound", ["ACCESSORYD_DHCP_STATE": state, "ip": "192.168.77.18", "mask": "24",
                                      "router": "192.168.77.1", "dns": "192.168.77.1"])
        #expect(bound.status == 0)
        #expect(bound.output == "lease 192.168.77.18 24\n")
        // No route, no DNS: only the address.
        #expect(bound.ipCalls == ["-4 addr replace 192.168.77.18/24 dev wlan9"])
        #expect(try String(contentsOfFile: state, encoding: .utf8) == "192.168.77.18/24\n")

        // A renewal with a new address removes the old one first.
        let renewed = try run("renew", ["ACCESSORYD_DHCP_STATE": state, "ip": "192.168.77.19", "mask": "24"])
        #expect(renewed.ipCalls == ["-4 addr del 192.168.77.18/24 dev wlan9", "-4 addr replace 192.168.77.19/24 dev wlan9"])

        // Deconfiguring removes exactly the address it added, and forgets it.
        let deconfigured = try run("deconfig", ["ACCESSORYD_DHCP_STATE": state])
        #expect(deconfigured.status == 0)
        #expect(deconfigured.ipCalls == ["-4 addr del 192.168.77.19/24 dev wlan9"])
        #expect(!FileManager.default.fileExists(atPath: state))
    }

    @Test func deconfigWithoutALeaseTouchesNoAddress() throws {
        let result = try run("deconfig", ["ACCESSORYD_DHCP_STATE": scratch.path("none.address")])
        #expect(result.status == 0)
        #expect(result.ipCalls.isEmpty)
    }

    @Test func withoutItsStateFileNamedItRefusesToRun() throws {
        let result = try run("bound", ["ip": "192.168.77.18", "mask": "24"])
        #expect(result.status != 0)
        #expect(result.ipCalls.isEmpty)
    }
}
