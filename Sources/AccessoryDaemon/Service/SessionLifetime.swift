import AccessoryCore
import AccessoryPlatform
import Logging

/// How sessions end, and what they release when they do: invalidated by
/// the app, its caller gone from the bus, or (persistent ones) idle too long.
final class SessionLifetime {
    /// Persistent sessions end after this long without a call.
    static let persistentIdleLimit = Duration.seconds(600)
    /// The sweep runs every minute: an idle session goes within a minute of its limit.
    static let sweepInterval = Duration.seconds(60)

    private let sessions: SessionTable
    private let center: AuthorizationCenter
    private let signals: ServiceSignals
    private let channels: ChannelHandler
    private let hotspots: HotspotHandler
    private let scheduler: any Scheduler
    private let logger: Logger
    private var sweepArmed = false

    init(sessions: SessionTable, center: AuthorizationCenter, signals: ServiceSignals, channels: ChannelHandler,
         hotspots: HotspotHandler, scheduler: any Scheduler, logger: Logger) {
        self.sessions = sessions
        self.center = center
        self.signals = signals
        self.channels = channels
        self.hotspots = hotspots
        self.scheduler = scheduler
        self.logger = logger
    }

    /// Ends a session for good: its picker is dismissed. The object stays
    /// (answering `invalidated`) until its caller leaves the bus.
    func end(_ session: ServiceSession, why: String) {
        session.invalidate()
        signals.sessionStateChanged(session)
        channels.close(of: session)
        hotspots.leave(of: session, why: "the session ended: \(why)")
        center.sessionEnded(session.number)
        logger.info("Session ended: \(why)", metadata: ["app": "\(session.app)", "session": "\(session.path)"])
    }

    /// Ends `session` unless it already was, and forgets it: it no longer
    /// counts against `SessionsPerApp`.
    func close(_ session: ServiceSession, why: String) {
        if session.state != .invalidated { end(session, why: why) }
        sessions.remove(session)
    }

    /// A session ends when its caller leaves the bus, as an app's process exits.
    func callerLeft(_ owner: String) {
        for session in sessions.open where session.owner == owner && !session.persistent {
            close(session, why: "its caller left the bus")
        }
    }

    /// When the first of `persistent` ends by itself, if nobody calls it.
    func soonestIdleEnd(of persistent: [ServiceSession]) -> MonotonicInstant? {
        persistent.map { $0.lastCall.advanced(by: Self.persistentIdleLimit + Self.sweepInterval) }.min()
    }

    func armSweep() {
        guard !sweepArmed else { return }
        // On the service's scheduler: idle limits read from `lastCall` and the
        // sweep's deadline count the same seconds, suspend included.
        sweepArmed = true
        scheduler.at(scheduler.now.advanced(by: Self.sweepInterval)) { [weak self] in
            guard let self else { return }
            sweepArmed = false
            let now = scheduler.now
            // An invalidated one goes at once: it would only count against SessionsPerApp.
            for session in sessions.open where session.persistent
                && (session.state == .invalidated || session.lastCall.advanced(by: Self.persistentIdleLimit) <= now) {
                close(session, why: "idle for \(Self.persistentIdleLimit)")
            }
            if sessions.open.contains(where: \.persistent) { armSweep() }
        }
    }
}
