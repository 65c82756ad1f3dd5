import AccessoryPlatform
import Foundation
import Glibc
import Testing
import TestSupport

/// The real accessoryd checks an app's `WakeSocket=` with systemd when it
/// loads the manifests, without waiting for the answer: on a bus where
/// systemd is not there, it says why the app cannot be woken (APP_WAKE_FAILED)
/// and serves on, at start and again on reload.
@Suite(.serialized) struct WakeSocketProcessTests {
    @Test func aWakeSocketSystemdCannotCheckIsLoggedAndTheDaemonServesOn() throws {
        let scratch = try ScratchDirectory("accessoryd-wake")
        let bus = try PrivateBus()
        let apps = scratch.path("apps.d")
        try FileManager.default.createDirectory(atPath: apps, withIntermediateDirectories: false)
        try "[App]\nName=sleeper\nUser=nobody\nWakeSocket=sleeper-wake.socket\nSupports=Bluetooth\n"
            .write(toFile: apps + "/sleeper.conf", atomically: true, encoding: .utf8)
        let config = scratch.path("accessoryd.conf")
        try "".write(toFile: config, atomically: true, encoding: .utf8)
        let (process, stderr) = try AccessorydProcess.startReady(config: config, apps: apps, bus: bus, state: scratch.path,
                                                                 notifyDirectory: scratch.path)
        // A reload checks again.
        kill(process.processIdentifier, SIGHUP)
        // The daemon still answers on the bus.
        let (busctl, out, _) = try bus.busctl(["call", "org.accessoryagent", "/org/accessoryagent",
                                               "org.accessoryagent.Manager1", "EndPersistentSessions"])
        busctl.waitUntilExit()
        #expect(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "u 0\n")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("sleeper cannot be woken: sleeper-wake.socket cannot be checked with systemd (LoadUnit)"))
    }
}
