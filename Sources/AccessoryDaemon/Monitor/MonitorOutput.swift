import AccessoryDecisions
import AccessoryPlatform

/// `--monitor`'s lines on their way out: gathered in one buffer and written
/// together (`flush`) when the daemon is about to wait (the event loop after a
/// busy iteration, a replay before a pause in its capture, the exit), or once
/// `flushThreshold` bytes are waiting, instead of a write per line. Someone
/// watching still sees each line as soon as its report has been handled.
public final class MonitorOutput {
    /// Half a pipe's default buffer: written in one go, and little held back.
    static let flushThreshold = 32 * 1024

    private let encoder = MonitorLineEncoder()
    private let sink: (UnsafeRawBufferPointer) -> Void

    /// `sink` receives whole lines, each with its newline; stdout by default.
    public init(sink: @escaping (UnsafeRawBufferPointer) -> Void = { StandardOutput.write($0) }) {
        self.sink = sink
    }

    public func write(_ sighting: DiscoveryPipeline.Sighting) {
        encoder.append(sighting)
        encoder.appendNewline()
        if encoder.count >= Self.flushThreshold { flush() }
    }

    /// Hands every waiting line to the sink.
    public func flush() {
        guard encoder.count > 0 else { return }
        encoder.withBytes { sink($0) }
        encoder.removeAll()
    }
}
