import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Logging

/// What one app may make the service read, hold or ask (`[Limits]`), and
/// how fast it has asked lately (`RequestsPerMinute`, `RequestBurst`); its
/// repeated lines are folded (`LogFold`), so that no app can make accessoryd
/// write enough to trip journald's rate limit and lose another app's decisions.
final class AppBudget {
    /// Set at start and on reload.
    var limits = AppLimits()
    private var requestRate = RequestRate(perMinute: AppLimits().requestsPerMinute, burst: AppLimits().requestBurst)
    /// One app's repeated lines, folded (never audit entries).
    var logFold = LogFold()
    private var foldReportArmed = false
    private let scheduler: any Scheduler
    private let logger: Logger

    init(scheduler: any Scheduler, logger: Logger) {
        self.scheduler = scheduler
        self.logger = logger
    }

    /// The methods that count as a request: each opens or changes something
    /// and may write an audit line.
    static let countedMethods: Set<String> = [
        Manager1.openSession.name, Manager1.openPersistentSession.name,
        Session1.showPicker.name, Session1.migrate.name, Session1.renameAccessory.name, Session1.removeAccessory.name,
        Session1.openBluetoothChannel.name, Session1.joinHotspot.name,
    ]

    /// Takes one request of `app` for `method`, or refuses it naming the limit.
    func admitRequest(_ app: AppID, _ method: BusMethod) throws(AccessorySetupError) {
        guard Self.countedMethods.contains(method.name) else { return }
        let now = scheduler.now
        if requestRate.perMinute != limits.requestsPerMinute || requestRate.burst != limits.requestBurst {
            requestRate = RequestRate(perMinute: limits.requestsPerMinute, burst: limits.requestBurst)
        }
        requestRate.forgetIdle(at: now)
        guard case .refused(let retryAfter) = requestRate.take(app, at: now) else { return }
        foldedLog(app, .notice, "Refused requests of \(app): over the limit RequestsPerMinute=\(limits.requestsPerMinute)",
                  ["app": "\(app)", "limit": "RequestsPerMinute=\(limits.requestsPerMinute)"])
        let milliseconds = retryAfter.components.seconds * 1000 + retryAfter.components.attoseconds / 1_000_000_000_000_000
        throw AccessorySetupError(.invalidRequest, reason: .message(limits.refusal(
            .requestsPerMinute, "\(app) asked too fast (\(method.name); at most \(limits.requestBurst) at once, RequestBurst)")
            + "; the next request is allowed in \(max(1, milliseconds)) ms"))
    }

    /// Writes a line about `app` unless the same line was written for it
    /// within the fold's window; those are counted and summed up in one
    /// line when the window ends. Never for audit entries.
    func foldedLog(_ app: AppID, _ level: Logger.Level, _ line: String, _ metadata: Logger.Metadata) {
        if logFold.admit(app, line, at: scheduler.now) { logger.log(level: level, "\(line)", metadata: metadata) }
        armFoldReport()
    }

    private func armFoldReport() {
        guard !foldReportArmed, let deadline = logFold.nextDeadline else { return }
        foldReportArmed = true
        scheduler.at(deadline) { [weak self] in
            guard let self else { return }
            foldReportArmed = false
            for folded in logFold.due(at: scheduler.now) {
                logger.notice("\(folded.line) (and \(folded.count) more like it from \(folded.app) in \(logFold.window), folded)",
                              metadata: ["app": "\(folded.app)", "folded": "\(folded.count)"])
            }
            armFoldReport()
        }
    }
}
