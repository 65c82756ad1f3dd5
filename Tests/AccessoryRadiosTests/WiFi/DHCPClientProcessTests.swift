import AccessoryCore
import AccessoryPlatform
import AccessoryRadios
import Foundation
import Glibc
import Testing
import TestSupport

/// DHCPClientProcess with a stand-in for udhcpc: a script that announces a
/// lease the way the udhcpc script does, and on SIGTERM writes a marker
/// (udhcpc -R releases the lease there) and exits.
@Suite("DHCP client process", .serialized)
struct DHCPClientProcessTests {
    private func fakeClient(in directory: String) throws -> String {
        let path = "\(directory)/fake-udhcpc"
        // A script on purpose: it stands in for a system program (udhcpc) that accessoryd starts.
        // Python, not sh: dash clears the signal mask it inherits, which would hide
        // the very fault this guards against; udhcpc (busybox) does not clear it.
        let script = """
            #!/usr/bin/python3
            # Arguments as accessoryd passes them: -f -R -i IF -s SCRIPT -p PIDFILE -t 4 -T 2 -A 2
            import os, signal, sys, time
            with open(sys.argv[sys.argv.index("-p") + 1], "w") as pid_file:
                pid_file.write(str(os.getpid()))
            # What the script would get: its path, and its address file in the environment.
            with open("\(directory)/script-call", "w") as call:
                call.write(sys.argv[sys.argv.index("-s") + 1] + " " + os.environ.get("ACCESSORYD_DHCP_STATE", "unset"))
            def released(*_):
                open("\(directory)/released", "w").close()
                sys.exit(0)
            signal.signal(signal.SIGTERM, released)
            print("lease 10.1.2.3 24", flush=True)
            while True:
                time.sleep(0.05)

            """
        // Close-on-exec from the start: a process another test spawns meanwhile
        // must not keep the file open for writing, or running it fails with
        // ETXTBSY (Foundation's atomic write uses mkstemp, which is not).
        try writeExecutable(path, script)
        return path
    }

    @Test func aLeftoverIsUDHCPCOnlyWhenItRunsAsTheProgramOrBusyboxsApplet() {
        func runs(_ arguments: [String]) -> Bool {
            DHCPClientProcess.runsUDHCPC(arguments.flatMap { Array($0.utf8) + [0] })
        }
        #expect(runs(["/sbin/udhcpc", "-f", "-R", "-i", "wlan0"]))
        #expect(runs(["udhcpc", "-i", "wlan0"]))
        #expect(runs(["busybox", "udhcpc", "-i", "wlan0"]))
        #expect(!runs(["/usr/bin/python3", "/tmp/fake-udhcpc", "-i", "wlan0"]))
        #expect(!runs(["sleep", "100"]))
        #expect(!runs([]))
    }

    @Test("the lease reaches the loop, and SIGTERM reaches the client even from a daemon that blocks it")
    func leaseAndRelease() throws {
        let scratch = try ScratchDirectory("dhcp")
        let directory = scratch.path
        let loop = try EventLoop()
        let client = DHCPClientProcess(interface: "wlan9", runtimeDirectory: directory, program: try fakeClient(in: directory))

        // As in accessoryd: SIGTERM is blocked (for the loop's signalfd) on the thread that spawns.
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        var lease: IPv4Address?
        try client.start(loop: loop, onLease: { lease = $0 }, onExit: { _ in })
        pthread_sigmask(SIG_SETMASK, &previous, nil)

        for _ in 0..<200 where lease == nil { _ = loop.runOnce(timeout: .milliseconds(50)) }
        #expect(lease == IPv4Address(10, 1, 2, 3))
        #expect(client.pid > 0)
        #expect(FileManager.default.fileExists(atPath: client.pidFile))

        client.stop(timeout: .seconds(10))
        #expect(client.pid == 0)
        #expect(FileManager.default.fileExists(atPath: "\(directory)/released"), "the client saw SIGTERM and released")
        // udhcpc runs the installed script (nothing is written to run), which keeps
        // its address file in the runtime directory.
        let call = try String(contentsOfFile: "\(directory)/script-call", encoding: .utf8)
        #expect(call == "\(DHCPClientProcess.defaultScript) \(directory)/udhcpc-wlan9.address")
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/udhcpc-wlan9.script"))
    }

    @Test("stopped on the loop: the loop serves other sources while the client releases, then the completion")
    func stopOnTheLoop() throws {
        let scratch = try ScratchDirectory("dhcp")
        let directory = scratch.path
        // A client that releases only once told to go on: a file the test makes from the loop.
        // A script on purpose, standing in for udhcpc (see fakeClient).
        let program = "\(directory)/slow-release"
        try writeExecutable(program, """
            #!/usr/bin/python3
            import os, signal, sys, time
            def released(*_):
                while not os.path.exists("\(directory)/go"):
                    time.sleep(0.02)
                open("\(directory)/released", "w").close()
                sys.exit(0)
            signal.signal(signal.SIGTERM, released)
            print("lease 10.1.2.3 24", flush=True)
            while True:
                time.sleep(0.05)

            """)
        let loop = try EventLoop(pingsWatchdog: false)
        let client = DHCPClientProcess(interface: "wlan9", runtimeDirectory: directory, program: program)
        var lease: IPv4Address?
        try client.start(loop: loop, onLease: { lease = $0 }, onExit: { _ in })
        for _ in 0..<200 where lease == nil { _ = loop.runOnce(timeout: .milliseconds(50)) }
        #expect(lease != nil)

        var order: [String] = []
        var stopped = false
        client.stop(on: loop, timeout: .seconds(600)) {
            stopped = true
            order.append("client gone")
        }
        order.append("stop asked")
        let other = try EventLoopWakeup()
        try loop.watch(other) {
            order.append(stopped ? "other source served after" : "other source served while the client releases")
            FileManager.default.createFile(atPath: "\(directory)/go", contents: nil)
        }
        other.wake()
        for _ in 0..<400 where !stopped { _ = loop.runOnce(timeout: .milliseconds(50)) }

        #expect(order == ["stop asked", "other source served while the client releases", "client gone"])
        #expect(client.pid == 0)
        #expect(FileManager.default.fileExists(atPath: "\(directory)/released"), "released before it exited")
    }

    @Test("a client that gives up is reported with its exit status")
    func exitWithoutLease() throws {
        let scratch = try ScratchDirectory("dhcp")
        let directory = scratch.path
        let program = "\(directory)/gives-up"
        try writeExecutable(program, "#!/bin/sh\nexit 1\n")
        let loop = try EventLoop()
        let client = DHCPClientProcess(interface: "wlan9", runtimeDirectory: directory, program: program)
        var exitStatus: Int32?
        try client.start(loop: loop, onLease: { _ in }, onExit: { exitStatus = $0 })
        for _ in 0..<200 where exitStatus == nil { _ = loop.runOnce(timeout: .milliseconds(50)) }
        #expect(exitStatus == 256)  // exit 1, as waitpid reports it
        #expect(client.pid == 0)
    }
}

/// Writes an executable script with a close-on-exec descriptor from the start:
/// a process another test spawns meanwhile must not keep it open for writing,
/// or running it fails with ETXTBSY (Foundation's atomic write uses mkstemp,
/// whose descriptor is not close-on-exec).
func writeExecutable(_ path: String, _ text: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard fd >= 0 else { throw SystemError.last("open(\(path))") }
    let bytes = Array(text.utf8)
    let written = write(fd, bytes, bytes.count)
    close(fd)
    guard written == bytes.count else { throw SystemError.last("write(\(path))") }
}
