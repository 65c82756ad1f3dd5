import AccessoryCodecs
import AccessoryCore
import AccessoryDecisions
import AccessoryPlatform
import Logging

/// `accessoryd --replay FILE --serve`: a btsnoop capture stands in for the
/// controllers while the daemon serves its API, so pickers get candidates on
/// a machine without radios (an app's CI). The records go through the same
/// ingest a live socket feeds, each round paced by `PacedReplay` on the event
/// loop's timers at the capture's gaps, never by sleeping: calls are answered
/// meanwhile. With `repeats`, the capture starts over `restartPause` after
/// its end, so its devices stay present while an app waits.
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
    /// The first round's records, read when the header was checked.
    private var firstRound: BtsnoopReplay?
    private var round: PacedReplay?
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
        firstRound = try BtsnoopReplay(capture: capture, ingest: ingest)
    }

    func start() {
        guard let replay = firstRound else { return }
        firstRound = nil
        play(replay, from: scheduler.now)
    }

    func stop() {
        round?.stop()
        round = nil
    }

    private func play(_ replay: BtsnoopReplay, from instant: MonotonicInstant) {
        let paced = PacedReplay(replay: replay, speed: speed, scheduler: scheduler) { [unowned self] error in
            roundEnded(error)
        }
        round = paced
        paced.start(at: instant)
    }

    private func roundEnded(_ error: BtsnoopError?) {
        if let error {
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
        play(again, from: scheduler.now.advanced(by: Self.restartPause))
    }
}
