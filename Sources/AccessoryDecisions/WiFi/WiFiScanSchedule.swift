import AccessoryCore

/// When to scan one Wi-Fi interface: only while something needs Wi-Fi, one
/// scan at a time, `interval` after the last one finished, further apart
/// (doubling up to `maximumInterval`) while scans keep failing. A scan someone
/// else ran (wpa_supplicant, iw) counts as ours, so the radio is never asked
/// twice for what it just did.
///
/// Pure: the caller feeds it the time and what the kernel said, and sets a
/// timer for `wakeUp`.
public struct WiFiScanSchedule: Sendable {
    public struct Configuration: Equatable, Sendable {
        /// Between the end of one scan and the start of the next.
        public var interval: Duration
        /// The longest backoff after repeated failures.
        public var maximumInterval: Duration
        /// How long to wait for our scan's results before reading the cache
        /// anyway. Ours covers only the configured frequencies.
        public var resultsTimeout: Duration
        /// How long to wait for the results of the scan that made ours busy.
        /// Its scope is unknown: a full scan of both bands, 5 GHz passively, on
        /// a connected interface that keeps returning to its channel, took 21 s
        /// in the lab, and wpa_supplicant itself allows its scans 30 s.
        public var busyRadioTimeout: Duration
        /// Consecutive failures before the interface counts as failing.
        public var failuresBeforeFailing: Int

        public init(
            interval: Duration = .seconds(10), maximumInterval: Duration = .seconds(300),
            resultsTimeout: Duration = .seconds(15), busyRadioTimeout: Duration = .seconds(45),
            failuresBeforeFailing: Int = 3
        ) {
            self.interval = interval
            self.maximumInterval = maximumInterval
            self.resultsTimeout = resultsTimeout
            self.busyRadioTimeout = busyRadioTimeout
            self.failuresBeforeFailing = failuresBeforeFailing
        }
    }

    public enum Phase: Equatable, Sendable {
        case idle
        /// Our scan runs; results are due by `deadline`.
        case scanning(deadline: MonotonicInstant)
        /// Ours was refused with EBUSY; the scan already running will bring results.
        case waitingForBusyRadio(deadline: MonotonicInstant)
    }

    /// What the caller does when the timer fires.
    public enum Action: Equatable, Sendable {
        case nothing
        /// Send TRIGGER_SCAN.
        case trigger
        /// No results came in time: read the cache anyway (it still holds what
        /// was heard, aged by seen_ms_ago), and back off.
        case readCacheAfterTimeout
    }

    public let configuration: Configuration
    public private(set) var phase: Phase = .idle
    public private(set) var demand = false
    public private(set) var consecutiveFailures = 0
    /// The earliest the next scan may start.
    public private(set) var nextScan: MonotonicInstant = .zero

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Whether failures have piled up enough to tell the operator.
    public var isFailing: Bool { consecutiveFailures >= configuration.failuresBeforeFailing }

    /// When to call `tick(at:)`; nil when nothing is due (no demand, idle).
    public var wakeUp: MonotonicInstant? {
        switch phase {
        case .idle: demand ? nextScan : nil
        case .scanning(let deadline), .waitingForBusyRadio(let deadline): deadline
        }
    }

    /// Something needs Wi-Fi (or stopped needing it). A scan already running
    /// finishes either way.
    public mutating func setDemand(_ needed: Bool) { demand = needed }

    public mutating func tick(at now: MonotonicInstant) -> Action {
        switch phase {
        case .idle:
            guard demand, now >= nextScan else { return .nothing }
            phase = .scanning(deadline: now.advanced(by: configuration.resultsTimeout))
            return .trigger
        case .scanning(let deadline), .waitingForBusyRadio(let deadline):
            guard now >= deadline else { return .nothing }
            fail(at: now)
            return .readCacheAfterTimeout
        }
    }

    /// The kernel refused our trigger with EBUSY: wait for the running scan instead.
    public mutating func radioBusy(at now: MonotonicInstant) {
        phase = .waitingForBusyRadio(deadline: now.advanced(by: configuration.busyRadioTimeout))
    }

    /// The trigger failed for another reason (interface down, not supported…).
    public mutating func triggerFailed(at now: MonotonicInstant) { fail(at: now) }

    /// NEW_SCAN_RESULTS for this interface, from our scan or anyone's.
    /// Returns whether to read the results (only while something needs them).
    /// Someone else's scan postpones ours but says nothing about why ours failed.
    public mutating func resultsReady(at now: MonotonicInstant) -> Bool {
        if phase != .idle { consecutiveFailures = 0 }
        phase = .idle
        nextScan = max(nextScan, now.advanced(by: configuration.interval))
        return demand
    }

    /// SCAN_ABORTED for this interface. Ours counts as a failure; someone
    /// else's changes nothing.
    public mutating func aborted(at now: MonotonicInstant) {
        guard phase != .idle else { return }
        fail(at: now)
    }

    /// The delay before the next scan after `failures` failures in a row.
    public func backoff(afterFailures failures: Int) -> Duration {
        var delay = configuration.interval
        for _ in 0..<min(failures, 32) {
            delay *= 2
            if delay >= configuration.maximumInterval { return configuration.maximumInterval }
        }
        return min(delay, configuration.maximumInterval)
    }

    private mutating func fail(at now: MonotonicInstant) {
        phase = .idle
        consecutiveFailures += 1
        nextScan = now.advanced(by: backoff(afterFailures: consecutiveFailures))
    }
}
