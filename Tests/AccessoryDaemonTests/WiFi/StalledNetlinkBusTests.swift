import AccessoryCodecs
import AccessoryCore
import AccessoryDecisions
import AccessoryWire
import Foundation
import Glibc
import Logging
import Testing
import TestSupport

@testable import AccessoryDaemon
@testable import AccessoryPlatform
@testable import AccessoryRadios

/// Issue 12's acceptance for nl80211, on a real private dbus-daemon: Wi-Fi
/// discovery's TRIGGER_SCAN goes to a socket pair whose other end plays the
/// kernel and does not answer; meanwhile an app's D-Bus call is answered.
/// Shown by order: the call is answered while the trigger is still unanswered,
/// and only then does the stand-in acknowledge it. The request timeout is long
/// so that nothing here depends on how fast anything runs.
@Suite(.serialized) struct StalledNetlinkBusTests {
    final class KernelStandIn: NetlinkTransport {
        let fileDescriptor: Int32
        let kernel: Int32

        init() throws {
            var fds: [Int32] = [-1, -1]
            let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            try #require(socketpair(AF_UNIX, type, 0, &fds) == 0)
            (fileDescriptor, kernel) = (fds[0], fds[1])
        }

        deinit {
            close(fileDescriptor)
            close(kernel)
        }

        func send(_ bytes: [UInt8]) throws(SystemError) {
            guard Glibc.send(fileDescriptor, bytes, bytes.count, 0) == bytes.count else { throw SystemError.last("send") }
        }

        func receive() throws(SystemError) -> [UInt8]? {
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = recv(fileDescriptor, &buffer, buffer.count, 0)
            if count < 0 { if errno == EAGAIN { return nil } else { throw SystemError.last("recv") } }
            return Array(buffer[0..<count])
        }
    }

    @Test func theBusAnswersWhileTheKernelHasNotAnsweredTheScanYet() throws {
        let camera = StalledWPASupplicantBusTests.camera
        let h = try ServiceHarness(manifests: [PickerFeatureTests.app], grants: [camera])
        let signals = h.scratch.path("signals")
        try FileManager.default.createDirectory(atPath: signals, withIntermediateDirectories: true)
        chmod(signals, 0o777)

        let standIn = try KernelStandIn()
        let channel = try NL80211RequestChannel(loop: h.loop, transport: standIn, timeout: .seconds(600))
        let scanner = NL80211Scanner(familyID: 32, requests: channel, events: try GenericNetlinkSocket())
        let wifi = WiFiDiscovery(loop: h.loop, discovery: h.pipeline, configuration: WiFiDiscoveryConfiguration(),
                                 logger: Logger(label: "test"))
        try wifi.start(scanner: scanner, interfaces: [WiFiInterfaceInfo(name: "wlan9", index: 9, phy: 0, address: nil, type: 2)])

        var order: [String] = []
        var trigger: (sequence: UInt32, command: UInt8)?
        let kernelWatch = try h.loop.watch(fd: standIn.kernel) { _ in
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(standIn.kernel, &buffer, buffer.count, 0)
            guard count >= 20, let header = try? NetlinkMessage(parsing: Array(buffer[0..<count])).header else { return }
            trigger = (header.sequence, buffer[16])
            order.append("kernel got command \(buffer[16])")
            FileManager.default.createFile(atPath: signals + "/stalled", contents: nil)
        }
        defer { h.loop.stopWatching(kernelWatch) }
        wifi.setDemand(true)

        let client = try h.startClient([
            ["session"], ["wait", signals + "/stalled"], ["call", BusNames.root, BusNames.manager, "OpenSession"],
        ], as: "nobody")
        let output = h.finish(client)
        let pendingWhenAnswered = scanner.pendingRequests
        order.append("the app's other call answered")
        // Now the kernel acknowledges the trigger.
        if let trigger {
            var ack: [UInt8] = []
            func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { ack += $0 } }
            append(UInt32(36)); append(UInt16(2)); append(UInt16(0)); append(trigger.sequence); append(UInt32(0))
            append(Int32(0))
            append(UInt32(20)); append(UInt16(32)); append(UInt16(5)); append(trigger.sequence); append(UInt32(0))
            _ = Glibc.send(standIn.kernel, ack, ack.count, 0)
        }
        h.pump { scanner.pendingRequests == 0 }

        #expect(order == ["kernel got command 33", "the app's other call answered"])  // NL80211_CMD_TRIGGER_SCAN
        #expect(pendingWhenAnswered == 1, "the trigger was still waiting for the kernel")
        let answered = output.split(separator: "\n")
        #expect(answered.count == 1 && answered[0].hasPrefix("/org/accessoryagent/session/"), "the other call answered: \(output)")
        #expect(scanner.pendingRequests == 0, "the acknowledgement ended it")
        withExtendedLifetime((h, wifi, scanner)) {}
    }
}
