import AccessoryCodecs
import AccessoryDecisions
import AccessoryPlatform
import AccessoryRadios
import Logging

extension Daemon {
    /// `accessoryd --replay FILE`: takes the Bluetooth input from a btsnoop
    /// capture instead of the controllers, through the same path after the
    /// socket, and returns the exit status once the file is done.
    public func replay(capturePath path: String, speed: BtsnoopReplay.Speed) -> Int32 {
        var logger = Logger(label: Self.identifier)
        logger.logLevel = .info
        guard let bytes = Self.readCapture(path) else { return Self.exitFailure }
        if let monitor { discovery.onSighting { monitor.write($0) } }
        let ingest = AdvertisingReportIngest(pipeline: discovery)
        let replay: BtsnoopReplay
        do {
            replay = try BtsnoopReplay(capture: bytes, ingest: ingest)
        } catch {
            StandardError.write("accessoryd: \(path): not a btsnoop capture: \(error)\n")
            return Self.exitFailure
        }

        // The capture's pace comes from timers on a loop of its own, armed
        // precisely: the capture's own pace, not the daemon's quarter-second coalescing.
        let loop: EventLoop
        do {
            loop = try EventLoop(pingsWatchdog: false)
        } catch {
            StandardError.write("accessoryd: \(error)\n")
            return Self.exitFailure
        }
        loop.preciseTimers = true
        var failure: BtsnoopError?
        let paced = PacedReplay(replay: replay, speed: speed, scheduler: loop, beforeWait: { [monitor] in
            // The lines so far are out before the capture pauses.
            monitor?.flush()
        }, finished: { error in
            failure = error
            loop.exit(code: 0)
        })
        paced.start()
        do {
            // The timers hold it unowned: it lives until the loop is done.
            _ = try withExtendedLifetime(paced) { () throws(SystemError) in try loop.run() }
        } catch {
            StandardError.write("accessoryd: \(error)\n")
            return Self.exitFailure
        }
        monitor?.flush()
        let drops = ingest.allDrops.summary
        logger.info("Replayed \(replay.eventCount) HCI events: \(ingest.advertisementCount) advertisements\(drops.isEmpty ? "" : ", dropped " + drops)")
        if let failure {
            // The records before a damaged one were replayed; say where it stopped.
            StandardError.write("accessoryd: \(path): replay stopped at a damaged record: \(failure)\n")
            return Self.exitFailure
        }
        return 0
    }

    /// The capture's bytes, or nil after saying on stderr why not.
    static func readCapture(_ path: String) -> [UInt8]? {
        do {
            guard let bytes = try FileSystem.readFileIfPresent(path, limit: 1 << 30) else {
                StandardError.write("accessoryd: \(path): no such file\n")
                return nil
            }
            return bytes
        } catch {
            StandardError.write("accessoryd: \(path): \(error)\n")
            return nil
        }
    }

    /// `--replay FILE --serve`: where the Bluetooth input comes from instead of the controllers.
    public struct ServedCapture: Sendable {
        public var path: String
        public var speed: BtsnoopReplay.Speed
        /// `--replay-loop`: start over after the end, so the devices stay present.
        public var repeats: Bool

        public init(path: String, speed: BtsnoopReplay.Speed, repeats: Bool) {
            self.path = path
            self.speed = speed
            self.repeats = repeats
        }
    }

    /// The capture's input on `loop`, started; nil (said on stderr) when the
    /// file cannot be read or is not a btsnoop capture.
    func startCaptureInput(_ served: ServedCapture, on loop: EventLoop, logger: Logger) -> CaptureBluetoothInput? {
        guard let bytes = Self.readCapture(served.path) else { return nil }
        let ingest = AdvertisingReportIngest(pipeline: discovery)
        do {
            let input = try CaptureBluetoothInput(
                capture: bytes, path: served.path, speed: served.speed, repeats: served.repeats,
                ingest: ingest, scheduler: loop, logger: logger)
            input.start()
            return input
        } catch {
            StandardError.write("accessoryd: \(served.path): not a btsnoop capture: \(error)\n")
            return nil
        }
    }
}
