import AccessoryCodecs
import AccessoryCore

/// `accessoryd --replay FILE`: feeds a capture's records on the scheduler's
/// timers at their recorded gaps, never by sleeping, so a test on a
/// `ManualScheduler` sees the gaps kept without waiting for them. Each record
/// is due at the start plus its offset in the capture, and a late timer feeds
/// everything due by then: the pace stays the capture's instead of drifting
/// later with every record. `.max` feeds the whole capture in one turn.
final class PacedReplay {
    private let replay: BtsnoopReplay
    private let speed: BtsnoopReplay.Speed
    private let scheduler: any Scheduler
    /// Called before each wait: `--monitor` writes out the lines so far.
    private let beforeWait: () -> Void
    /// Called once at the end: nil when every record was fed, else the damaged record's error.
    private let finished: (BtsnoopError?) -> Void
    private var timer: TimerToken?
    /// When the records the next step feeds are due.
    private var due = MonotonicInstant(nanoseconds: 0)

    init(replay: BtsnoopReplay, speed: BtsnoopReplay.Speed, scheduler: any Scheduler,
         beforeWait: @escaping () -> Void = {}, finished: @escaping (BtsnoopError?) -> Void) {
        self.replay = replay
        self.speed = speed
        self.scheduler = scheduler
        self.beforeWait = beforeWait
        self.finished = finished
    }

    /// Arms the first step, at `instant` (now by default): the records run
    /// from the scheduler, not from here.
    func start(at instant: MonotonicInstant? = nil) {
        due = instant ?? scheduler.now
        timer = scheduler.at(due) { [unowned self] in advance() }
    }

    /// Feeds nothing more, and never calls `finished`.
    func stop() {
        if let timer { scheduler.cancel(timer) }
        timer = nil
    }

    private func advance() {
        timer = nil
        do {
            // `.max` never waits: it feeds the rest without reading ahead for
            // the gaps, whose Duration arithmetic cost ~200 instructions a
            // record, and whose look-ahead ~60 more (callgrind, issue 25).
            guard speed == .recorded else {
                try replay.run()
                return finished(nil)
            }
            let now = scheduler.now
            while let wait = try replay.step() {
                due = due.advanced(by: wait)
                if due > now {
                    beforeWait()
                    timer = scheduler.at(due) { [unowned self] in advance() }
                    return
                }
            }
        } catch {
            return finished(error)
        }
        finished(nil)
    }
}
