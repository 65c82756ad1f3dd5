/// Nanoseconds per item: the median of `runs` timed passes, each over every
/// item once. The median, not the best: both sides of a comparison are
/// measured the same way in the same run, and the median is what the report
/// states for both.
func nanosecondsPerItem(runs: Int, items: Int, _ pass: () -> Int) -> (ns: Double, checksum: Int) {
    // A stopwatch is what a benchmark is for: the exception to the injected
    // scheduler that README's "Time" lists for accessory-bench.
    let clock = ContinuousClock()
    var samples: [Double] = []
    var checksum = 0
    for _ in 0..<max(1, runs) {
        let start = clock.now
        checksum = pass()
        let elapsed = start.duration(to: clock.now)
        let ns = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        samples.append(ns / Double(max(1, items)))
    }
    samples.sort()
    return (samples[samples.count / 2], checksum)
}
