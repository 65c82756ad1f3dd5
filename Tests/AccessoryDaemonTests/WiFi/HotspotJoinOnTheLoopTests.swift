import AccessoryCodecs
import AccessoryCore
import AccessoryPlatform
import Foundation
import Glibc
import Testing
import TestSupport

@testable import AccessoryDaemon

/// A join driven on the event loop against a control socket standing in for
/// wpa_supplicant (a real unix datagram socket): one that never answers, and
/// one that plays a whole join ending in a wrong key. Asserted: the order of
/// things on the loop and the typed results, never durations. Timers on a
/// manual scheduler: a stalled peer's timeout passes without waiting for it.
@Suite("Hotspot joins on the event loop", .serialized)
struct HotspotJoinOnTheLoopTests {
    let scratch: ScratchDirectory
    let settings: HotspotJoinSettings

    init() throws {
        scratch = try ScratchDirectory("join-loop")
        settings = HotspotJoinSettings(
            controlDirectory: scratch.path("wpa"), runtimeDirectory: scratch.path("run"),
            stateDirectory: scratch.path("state"), networkManagerDirectory: scratch.path("no-nm"))
        try FileManager.default.createDirectory(atPath: scratch.path("wpa"), withIntermediateDirectories: true)
    }

    /// Serves what is ready on the loop; when nothing is, moves the manual
    /// scheduler to its next deadline (a request's timeout): timeouts pass in
    /// microseconds. At most 400 turns (a bound against a hang, not a timing).
    private func run(_ loop: EventLoop, _ scheduler: ManualScheduler, until done: () -> Bool) {
        for _ in 0..<400 where !done() {
            if loop.runOnce(timeout: .zero) { continue }
            scheduler.runDue()
            if done() { return }
            if let next = scheduler.nextDeadline, next > scheduler.now { scheduler.advance(to: next) }
        }
    }

    @Test("a stalled wpa_supplicant: the loop serves other sources while the join waits, and the join ends with a typed result")
    func stalled() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        let scheduler = ManualScheduler()
        let peer = try UnixDatagramPeer(path: scratch.path("wpa/lo"))
        let joiner = HotspotJoiner(loop: loop, settings: settings, scheduler: scheduler)
        var order: [String] = []
        var result: HotspotJoinResult?
        let other = try EventLoopWakeup()
        try loop.watch(other) { order.append(result == nil ? "other source served, join pending" : "other source served, join over") }
        let peerWatch = try loop.watch(fd: peer.fd) { _ in
            while let request = peer.receive() { order.append("wpa_supplicant got \(request.text)") }
            other.wake()
        }
        defer { loop.stopWatching(peerWatch) }

        try joiner.join(ssid: SSID("Lamp")!, credential: .open, interface: "lo") { ended in
            result = ended
            order.append("join ended")
        }
        #expect(joiner.join(on: "lo") != nil, "the interface is held while the join starts")
        run(loop, scheduler, until: { result != nil && joiner.join(on: "lo") == nil })

        #expect(order == ["wpa_supplicant got LIST_NETWORKS", "other source served, join pending", "join ended"])
        #expect(result == .failed(reason: "wpa_supplicant did not answer LIST_NETWORKS"))
        #expect(joiner.join(on: "lo") == nil, "the interface is given back")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("state/\(JoinRecord.fileName(interface: "lo"))")))
    }

    @Test("a whole join, one reply at a time: a wrong key ends it, and the undo restores the previous network")
    func wrongKeyAndUndo() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        let scheduler = ManualScheduler()
        let peer = try UnixDatagramPeer(path: scratch.path("wpa/lo"))
        let joiner = HotspotJoiner(loop: loop, settings: settings, scheduler: scheduler)
        var requests: [String] = []
        var recordWhileJoining = false
        var eventSocket: String?
        let peerWatch = try loop.watch(fd: peer.fd) { _ in
            while let request = peer.receive() {
                let text = request.text
                requests.append(text)
                switch text {
                case "LIST_NETWORKS":
                    peer.reply("network id / ssid / bssid / flags\n0\tHome\tany\t[CURRENT]\n2\tOther\tany\t\n", to: request.sender)
                case "ADD_NETWORK":
                    peer.reply("1\n", to: request.sender)
                case "ATTACH":
                    eventSocket = request.sender
                    peer.reply("OK\n", to: request.sender)
                case "SELECT_NETWORK 1":
                    recordWhileJoining = FileManager.default.fileExists(
                        atPath: scratch.path("state/\(JoinRecord.fileName(interface: "lo"))"))
                    peer.reply("OK\n", to: request.sender)
                    if let eventSocket {
                        peer.reply("<3>CTRL-EVENT-SSID-TEMP-DISABLED id=1 ssid=\"Lamp\" auth_failures=1 duration=10 reason=WRONG_KEY",
                                   to: eventSocket)
                    }
                default:
                    peer.reply("OK\n", to: request.sender)
                }
            }
        }
        defer { loop.stopWatching(peerWatch) }

        var result: HotspotJoinResult?
        try joiner.join(ssid: SSID("Lamp")!, credential: .open, interface: "lo") { result = $0 }
        run(loop, scheduler, until: { result != nil && joiner.join(on: "lo") == nil })

        #expect(result == .wrongKey)
        #expect(recordWhileJoining, "the crash-recovery record exists before the network is selected")
        #expect(requests == [
            "LIST_NETWORKS", "ADD_NETWORK", "SET_NETWORK 1 ssid 4c616d70", "SET_NETWORK 1 key_mgmt NONE",
            "SET_NETWORK 1 scan_ssid 1", "ATTACH", "SELECT_NETWORK 1", "DETACH",
            "REMOVE_NETWORK 1", "SELECT_NETWORK 0", "ENABLE_NETWORK 2",
        ])
        #expect(joiner.join(on: "lo") == nil)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("state/\(JoinRecord.fileName(interface: "lo"))")),
                "the record is removed once the previous network is back")
    }

    @Test("wpa_supplicant replaced by a new instance mid-join: the join ends with a typed result, and the new one is not touched")
    func supplicantReplaced() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        let scheduler = ManualScheduler()
        var peer: UnixDatagramPeer? = try UnixDatagramPeer(path: scratch.path("wpa/lo"))
        let joiner = HotspotJoiner(loop: loop, settings: settings, scheduler: scheduler)
        var selected = false
        var peerWatch: WatchToken?
        peerWatch = try loop.watch(fd: peer!.fd) { _ in
            while let request = peer?.receive() {
                switch request.text {
                case "LIST_NETWORKS": peer?.reply("network id / ssid / bssid / flags\n0\tHome\tany\t[CURRENT]\n", to: request.sender)
                case "ADD_NETWORK": peer?.reply("1\n", to: request.sender)
                case "SELECT_NETWORK 1":
                    peer?.reply("OK\n", to: request.sender)
                    selected = true
                default: peer?.reply("OK\n", to: request.sender)
                }
            }
        }
        var result: HotspotJoinResult?
        try joiner.join(ssid: SSID("Lamp")!, credential: .open, interface: "lo") { result = $0 }
        run(loop, scheduler, until: { selected })
        #expect(selected)
        #expect(FileManager.default.fileExists(atPath: scratch.path("state/\(JoinRecord.fileName(interface: "lo"))")))

        // Killed, and a new wpa_supplicant takes the same control path.
        if let peerWatch { loop.stopWatching(peerWatch) }
        peer = nil
        let successor = try UnixDatagramPeer(path: scratch.path("wpa/lo"))
        var toSuccessor: [String] = []
        let successorWatch = try loop.watch(fd: successor.fd) { _ in
            while let request = successor.receive() {
                toSuccessor.append(request.text)
                successor.reply("OK\n", to: request.sender)
            }
        }
        defer { loop.stopWatching(successorWatch) }
        run(loop, scheduler, until: { result != nil && joiner.join(on: "lo") == nil })

        #expect(result == .failed(reason: "wpa_supplicant went away"))
        #expect(joiner.join(on: "lo") == nil, "the interface is given back")
        #expect(!toSuccessor.contains { $0.hasPrefix("REMOVE_NETWORK") || $0.hasPrefix("SELECT_NETWORK") || $0.hasPrefix("ENABLE_NETWORK") },
                "the new instance's networks are its own: \(toSuccessor)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("state/\(JoinRecord.fileName(interface: "lo"))")),
                "nothing is left for a later start to undo")
    }

    @Test("left while ATTACH waits for its acknowledgement: the network added is removed and the interface given back")
    func leftDuringAttach() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        let scheduler = ManualScheduler()
        let peer = try UnixDatagramPeer(path: scratch.path("wpa/lo"))
        var long = settings
        long.requestTimeout = .seconds(600)
        let joiner = HotspotJoiner(loop: loop, settings: long, scheduler: scheduler)
        var requests: [String] = []
        let peerWatch = try loop.watch(fd: peer.fd) { _ in
            while let request = peer.receive() {
                requests.append(request.text)
                switch request.text {
                case "LIST_NETWORKS": peer.reply("network id / ssid / bssid / flags\n0\tHome\tany\t[CURRENT]\n", to: request.sender)
                case "ADD_NETWORK": peer.reply("1\n", to: request.sender)
                case "ATTACH": joiner.leave(interface: "lo")  // never acknowledged; the app goes meanwhile
                default: peer.reply("OK\n", to: request.sender)
                }
            }
        }
        defer { loop.stopWatching(peerWatch) }
        var result: HotspotJoinResult?
        try joiner.join(ssid: SSID("Lamp")!, credential: .open, interface: "lo") { result = $0 }
        run(loop, scheduler, until: { joiner.join(on: "lo") == nil })

        #expect(joiner.join(on: "lo") == nil, "the interface is given back")
        #expect(result == nil, "a join left by its owner reports nothing more")
        #expect(requests.suffix(2) == ["REMOVE_NETWORK 1", "SELECT_NETWORK 0"], "\(requests)")
        #expect(!requests.contains("SELECT_NETWORK 1"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("state/\(JoinRecord.fileName(interface: "lo"))")))
    }
}
