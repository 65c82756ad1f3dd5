import Foundation
import Testing

/// README's "Time" rule, kept from regressing: outside the scheduler's
/// implementation and the listed exceptions, no source reads a clock, arms a
/// timer of its own or sleeps. A plain text search, as `grep` would show it.
@Suite struct ClockReadsTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// What reading a clock, arming a timer or sleeping looks like in Swift on Linux.
    static let patterns = [
        "clock_gettime", "CLOCK_REALTIME", "CLOCK_MONOTONIC", "gettimeofday", "time(nil)", "Date()", "Date.now",
        "ContinuousClock", "SuspendingClock", "DispatchTime", "asyncAfter", "nanosleep", "usleep", "sleep(",
        "timerfd_", "sd_event_add_time", "setitimer", "alarm(",
        // A second system clock beside the loop's (the loop's is `EventLoop.clock`).
        "SystemMonotonicClock()",
    ]

    /// Paths under Sources/ (a trailing slash: the whole directory), each with README's reason.
    static let allowed = [
        // The scheduler's implementation: the loop's clock and its one timer source.
        "AccessoryPlatform/SystemMonotonicClock.swift",
        "AccessoryPlatform/EventLoop/EventLoop.swift",
        // accessoryctl's blocking bus client, which runs no loop: its default clock (injected in tests).
        "AccessoryctlCommand/AdminClient.swift",
        // The console log's time of day, for the reader; it decides nothing.
        "AccessoryPlatform/Journal/ConsoleLogHandler.swift",
        // Apps on the async client library, which has no clock to inject.
        "accessory-mqtt/SessionFollower.swift",
        "accessory-example/RestartWatch.swift",
        "accessory-example/Follow.swift",
        // A benchmark's stopwatch is its purpose.
        "accessory-bench/",
        // The lab's simulated sensor (not shipped): its beacon is paced on its own poll loop.
        "lab-peripheral/Peripheral.swift",
    ]

    /// Every Swift file under Sources/ that mentions a pattern, with the first line that does.
    static func clockReaders() throws -> [String: String] {
        var found: [String: String] = [:]
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        for case let url as URL in files where url.pathExtension == "swift" {
            let path = String(url.path.dropFirst(sources.path.count + 1))
            let text = try String(contentsOf: url, encoding: .utf8)
            for line in text.split(separator: "\n") where patterns.contains(where: { line.contains($0) }) {
                found[path] = String(line)
                break
            }
        }
        return found
    }

    static func isAllowed(_ path: String) -> Bool {
        allowed.contains { $0.hasSuffix("/") ? path.hasPrefix($0) : path == $0 }
    }

    @Test func onlyTheSchedulerAndTheListedExceptionsReadAClock() throws {
        let readers = try Self.clockReaders()
        #expect(!readers.isEmpty, "the search found Sources/ and the scheduler's own clock")
        for (path, line) in readers.sorted(by: { $0.key < $1.key }) where !Self.isAllowed(path) {
            Issue.record("Sources/\(path) reads a clock or sleeps outside the injected Scheduler: \(line)")
        }
    }

    /// An exception that is gone leaves the list, so the list says what is true.
    @Test func everyListedExceptionStillNeedsIt() throws {
        let readers = try Self.clockReaders().keys
        for entry in Self.allowed {
            #expect(readers.contains { entry.hasSuffix("/") ? $0.hasPrefix(entry) : $0 == entry },
                    "Sources/\(entry) no longer reads a clock: drop it from the list and README's \"Time\"")
        }
    }
}
