import AccessoryCodecs
import AccessoryCore
import AccessoryDecisions
import AccessoryPlatform
import Logging

/// `accessoryd --replay FILE --serve`: a btsnoop capture stands in for the
/// controllers while the daemon serves its API, so pickers get candidates on
/// a machine without radios (an app's CI). The records go through the same
/// ingest a live socket feeds, on the event loop's timers at their recorded
/// gaps, never by sleeping: calls are answered meanwhile. The loop coalesces
/// timers to a quarter second, so each record is due at the round's start
/// plus its offset in the capture, and a late timer feeds everything due by
/// then: the pace stays the capture's instead of drifting a little later
/// with every record. With
/// `repeats`, the capture starts over `restartPause` after its end, so its
/// devices stay present while an app waits.
final class CaptureBluetoothInput {
    static let restartPause: Duration = .seconds(1)

    private let capture: [UInt8]
    private let path: String
    private let speed: BtsnoopReplay.Speed
    private let repeats: Bool
    private let ingest: AdvertisingReportIngest
    /// Paces the replay: the loop, or a test's manual scheduler.
    private let scheduler: any Scheduler
    private let logger: Logger
    private var replay: BtsnoopReplay
    private var timer: TimerToken?
    /// When the records the next step feeds were due, on the loop's clock.
    private var due = MonotonicInstant(nanoseconds: 0)
    private(set) var rounds = 0

    /// Throws when `capture` is not a btsnoop file (its header is checked here).
    init(capture: [UInt8], path: String, speed: BtsnoopReplay.Speed, repeats: Bool,
         ingest: AdvertisingReportIngest, scheduler: any Scheduler, logger: Logger) throws(BtsnoopError) {
        self.capture = capture
        self.path = path
        self.speed = speed
        self.repeats = repeats
        self.ingest = ingest
        self.scheduler = scheduler
        self.logger = logger
        replay = try BtsnoopReplay(capture: capture, ingest: ingest)
    }

    func start() {
        due = scheduler.now
        schedule()
    }

    func stop() {
        if let timer { scheduler.cancel(timer) }
        timer = nil
    }

    private func schedule() {
        timer = scheduler.at(due) { [unowned self] in advance() }
    }

    private func advance() {
        timer = nil
        do {
            // Everything due by now; `.max` feeds the whole capture in one turn of the loop.
            let now = scheduler.now
            while let wait = try replay.step() {
                due = due.advanced(by: wait)
                if speed == .recorded && due > now { return schedule() }
            }
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
        due = scheduler.now.advanced(by: Self.restartPause)
        schedule()
    }
}
