// The matching index against a plain scan over every descriptor, and the
// registry's full path, on Swift values made by the seeded workload
// (`accessory-bench matching`).
import AccessoryCore

private let appCount = 20
private let advertisementCount = 20_000
/// The bench's stopwatch: an exception to the injected scheduler (README, "Time").
private let clock = ContinuousClock()

/// The best of three runs of `run`: the board is shared, and the best run is
/// the one least disturbed by other work.
private func measure(_ body: (Advertisement) -> Int, _ adverts: [Advertisement]) -> (Double, Int) {
    var best = (0.0, 0)
    for _ in 0..<3 {
        let result = run(body, adverts)
        if result.0 > best.0 { best = result }
    }
    return best
}

/// Runs `body` over the advertisements until at least `minimum` has passed; returns adverts per second
/// and the matches found per pass.
private func run(minimum: Duration = .milliseconds(500), _ body: (Advertisement) -> Int, _ adverts: [Advertisement]) -> (Double, Int) {
    var processed = 0
    var matched = 0
    let start = clock.now
    var elapsed = Duration.zero
    repeat {
        for advert in adverts { matched &+= body(advert) }
        processed += adverts.count
        elapsed = start.duration(to: clock.now)
    } while elapsed < minimum
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return (Double(processed) / seconds, matched / max(1, processed / adverts.count))
}

private func format(_ rate: Double) -> String {
    let whole = Int(rate)
    var digits = String(whole)
    var grouped = ""
    while digits.count > 3 {
        grouped = "," + digits.suffix(3) + grouped
        digits.removeLast(3)
    }
    return (digits + grouped).padding(11)
}

private extension String {
    func padding(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}

func printMatchingTable() {
    var workload = Workload(seed: 0xACCE55)
    let adverts = (0..<advertisementCount).map { workload.advertisement($0) }

    print("accessory-bench: \(advertisementCount) distinct advertisements, descriptors over \(appCount) apps")
    print("(best of 3 runs of at least 0.5 s each; registry: merge, smooth, match, presence, 4096-entry table)")
    print("descriptors | index adv/s | scan adv/s | registry adv/s | matches per 20k adverts")
    for descriptorCount in [1, 100, 1_000] {
        var index = MatchingIndex()
        var made = 0
        while made < descriptorCount {
            let app = AppID("app\(made % appCount)")
            do {
                try index.insert(workload.descriptor(), id: DescriptorID(UInt64(made)), app: app)
                made += 1
            } catch {
                fatalError("the workload made an invalid descriptor: \(error)")
            }
        }
        let (indexed, matches) = measure({ index.matches($0).count }, adverts)
        let (scanned, scanMatches) = measure({ index.matchesByScanningAll($0).count }, adverts)
        precondition(matches == scanMatches, "index and scan disagree")
        var registry = AccessoryRegistry(configuration: PresenceConfiguration(capacity: 4096))
        var tick: UInt64 = 0
        let (recorded, _) = measure({ advert in
            tick &+= 1_000_000
            return registry.record(advert, at: MonotonicInstant(nanoseconds: tick), matchingWith: index).count
        }, adverts)
        print("\(String(descriptorCount).padding(11)) | \(format(indexed)) | \(format(scanned).padding(10)) | \(format(recorded).padding(14)) | \(matches)")
    }
}
