import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Logging

/// How fast one app may ask (`RequestRate`, `[Limits] RequestsPerMinute`
/// and `RequestBurst`), and the folding of one app's repeated lines
/// (`LogFold`), so that no app can make accessoryd write enough to trip
/// journald's rate limit and lose another app's decisions.
extension AccessoryService {
    /// The methods that count as a request: each opens or changes something
    /// and may write an audit line.
    static let countedMethods: Set<String> = [
        Manager1.openSession.name, Manager1.openPersistentSession.name,
        Session1.showPicker.name, Session1.migrate.name, Session1.renameAccessory.name, Session1.removeAccessory.name,
        Session1.openBluetoothChannel.name, Session1.joinHotspot.name,
    ]

    /// Takes one request of `app` for `method`, or refuses it naming the limit.
    func admitRequest(_ app: AppID, _ method: String) throws(AccessorySetupError) {
        guard Self.countedMethods.contains(method) else { return }
        let now = clock.now
        if requestRate.perMinute != limits.requestsPerMinute || requestRate.burst != limits.requestBurst {
            requestRate = RequestRate(perMinute: limits.requestsPerMinute, burst: limits.requestBurst)
        }
        requestRate.forgetIdle(at: now)
        guard case .refused(let retryAfter) = requestRate.take(app, at: now) else { return }
        foldedLog(app, .notice, "Refused requests of \(app): over the limit RequestsPerMinute=\(limits.requestsPerMinute)",
                  ["app": "\(app)", "limit": "RequestsPerMinute=\(limits.requestsPerMinute)"])
        let milliseconds = retryAfter.components.seconds * 1000 + retryAfter.components.attoseconds / 1_000_000_000_000_000
        throw AccessorySetupError(.invalidRequest, reason: .message(limits.refusal(
            .requestsPerMinute, "\(app) asked too fast (\(method); at most \(limits.requestBurst) at once, RequestBurst)")
            + "; the next request is allowed in \(max(1, milliseconds)) ms"))
    }

    /// Writes a line about `app` unless the same line was written for it
    /// within the fold's window; those are counted and summed up in one
    /// line when the window ends. Never for audit entries.
    func foldedLog(_ app: AppID, _ level: Logger.Level, _ line: String, _ metadata: Logger.Metadata) {
        let now = clock.now
        guard logFold.admit(app, line, at: now) else {
            armFoldReport()
            return
        }
        logger.log(level: level, "\(line)", metadata: metadata)
        armFoldReport()
    }

    private func armFoldReport() {
        guard !foldReportArmed, let deadline = logFold.nextDeadline else { return }
        foldReportArmed = true
        scheduler.at(deadline) { [weak self] in
            guard let self else { return }
            foldReportArmed = false
            for folded in logFold.due(at: clock.now) {
                logger.notice("\(folded.line) (and \(folded.count) more like it from \(folded.app) in \(logFold.window), folded)",
                              metadata: ["app": "\(folded.app)", "folded": "\(folded.count)"])
            }
            armFoldReport()
        }
    }
}
