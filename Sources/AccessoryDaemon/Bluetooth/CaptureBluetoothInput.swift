import AccessoryCodecs
import AccessoryPlatform
import Logging

/// `accessoryd --replay FILE --serve`: a btsnoop capture stands in for the
/// controllers while the daemon serves its API, so pickers get candidates on
/// a machine without radios (an app's CI). The records go through the same
/// ingest a live socket feeds, on the event loop's timers at their recorded
/// gaps (the loop coalesces timers to a quarter second, close enough for
/// presence), never by sleeping: calls are answered meanwhile. With
/// `repeats`, the capture starts over `restartPause` after its end, so its
/// devices stay present while an app waits.
final class CaptureBluetoothInput {
    static let restartPause: Duration = .seconds(1)

    private let capture: [UInt8]
    private let path: String
    private let speed: BtsnoopReplay.Speed
    private let repeats: Bool
    private let ingest: AdvertisingReportIngest
    private let loop: EventLoop
    private let logger: Logger
    private var replay: BtsnoopReplay
    private var timer: TimerToken?
    private(set) var rounds = 0

    /// Throws when `capture` is not a btsnoop file (its header is checked here).
    init(capture: [UInt8], path: String, speed: BtsnoopReplay.Speed, repeats: Bool,
         ingest: AdvertisingReportIngest, loop: EventLoop, logger: Logger) throws(BtsnoopError) {
        self.capture = capture
        self.path = path
        self.speed = speed
        self.repeats = repeats
        self.ingest = ingest
        self.loop = loop
        self.logger = logger
        replay = try BtsnoopReplay(capture: capture, ingest: ingest)
    }

    func start() { schedule(after: .zero) }

    func stop() {
        if let timer { loop.cancel(timer) }
        timer = nil
    }

    private func schedule(after wait: Duration) {
        do {
            timer = try loop.after(wait) { [unowned self] in advance() }
        } catch {
            logger.error("Cannot pace the replay of \(path): \(error); replay stopped")
        }
    }

    private func advance() {
        timer = nil
        do {
            // `.max` feeds the whole capture in one turn of the loop.
            var wait = try replay.step()
            while speed == .max, wait != nil { wait = try replay.step() }
            if let wait { return schedule(after: wait) }
        } catch {
            // The records before the damaged one were fed; the API stays up.
            logger.error("Replay of \(path) stopped at a damaged record: \(error)")
            return
        }
        rounds += 1
        let drops = ingest.allDrops.summary
        // Once at info; a looping capture's later rounds would flood the log.
        logger.log(level: rounds == 1 ? .info : .debug,
                   "Replayed \(path) (round \(rounds)): \(ingest.advertisementCount) advertisements so far\(drops.isEmpty ? "" : ", dropped " + drops)")
        guard repeats, let again = try? BtsnoopReplay(capture: capture, ingest: ingest) else { return }
        replay = again
        schedule(after: Self.restartPause)
    }
}
