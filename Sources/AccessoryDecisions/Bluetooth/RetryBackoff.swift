/// Exponential backoff for re-setting up a controller after a hardware error,
/// a reset or a command that never completed: 1 s, 2 s, 4 s … up to a
/// ceiling, back to the start once scanning works again. A controller that
/// keeps failing is retried forever, but rarely.
public struct RetryBackoff: Hashable, Sendable {
    public let initial: Duration
    public let maximum: Duration
    public private(set) var attempts = 0

    public init(initial: Duration = .seconds(1), maximum: Duration = .seconds(60)) {
        self.initial = initial
        self.maximum = max(initial, maximum)
    }

    /// The delay before the next attempt; each call doubles the next one.
    public mutating func nextDelay() -> Duration {
        var delay = initial
        for _ in 0..<min(attempts, 32) where delay < maximum { delay *= 2 }
        attempts &+= 1
        return min(delay, maximum)
    }

    public mutating func reset() { attempts = 0 }
}
