// accessory-bench: the measurements behind docs/benchmarks.md. `make bench`
// (Tests/Bench/run) drives it beside Home Assistant's bluetooth-data-tools
// over one corpus file and writes the report; by hand:
//   swift run -c release accessory-bench corpus /tmp/corpus.bin
//   swift run -c release accessory-bench parse /tmp/corpus.bin --runs 5
// Each measuring command prints one line of key=value pairs. Figures go to a
// report, never into a test's pass/fail.
import AccessoryCore
import Foundation

let usage = """
    usage: accessory-bench COMMAND [options]
      corpus OUT [--count N] [--seed S]       write the seeded corpus of distinct payloads
      parse CORPUS [--limit N] [--runs R]     the AD parser alone
      match CORPUS --descriptors D [--reused 1] [--limit N] [--runs R]
                                              parse into an advertisement and match (D descriptors of 20 apps);
                                              --reused 1: parse into reused storage, as the ingest does a
                                              known device's changed payload
      intake CORPUS [--descriptors D] [--devices K] [--limit N] [--runs R]
                                              HCI event bytes -> ingest -> pipeline (registry, match, presence)
      capture CORPUS OUT --reports N [--devices K]
                                              a btsnoop capture for accessoryd --replay
      descriptors OUT --descriptors D         the same descriptors as a --descriptors file
      matching                                the index against a scan of every descriptor
      resolve [--bonds B] [--addresses A] [--strangers S] [--runs R]
                                              resolvable private addresses: A rotating ones of B bonds among
                                              S strangers', each report's identity cold (first sight) and warm
    R = 0 runs one untimed pass (for callgrind and allocation counts).
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("accessory-bench: \(message)\n\(usage)\n".utf8))
    exit(64)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard !arguments.isEmpty else { fail("a command is needed") }
let command = arguments.removeFirst()
var positional: [String] = []
var options: [String: Int] = [:]
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    if argument.hasPrefix("--") {
        guard let value = arguments.first.flatMap({ Int($0) }) else { fail("\(argument) needs a number") }
        arguments.removeFirst()
        options[String(argument.dropFirst(2))] = value
    } else {
        positional.append(argument)
    }
}

func read(_ path: String) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    return [UInt8](data)
}

func write(_ bytes: [UInt8], to path: String) {
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { fail("cannot write \(path)") }
}

@MainActor func corpus(at index: Int) -> AdvertisementCorpus {
    guard positional.count > index else { fail("\(command) needs a corpus file") }
    return AdvertisementCorpus(file: read(positional[index]))
}

/// Times `pass` R times, or runs it once untimed when R is 0, and prints the line.
@MainActor func report(_ name: String, items: Int, _ pass: () -> Int) {
    let runs = options["runs"] ?? 5
    if runs == 0 {
        print("\(name) items=\(items) checksum=\(pass())")
    } else {
        let (ns, checksum) = nanosecondsPerItem(runs: runs, items: items, pass)
        print("\(name) items=\(items) runs=\(runs) ns_per_item=\(String(format: "%.1f", ns)) checksum=\(checksum)")
    }
}

let apps = 20
let descriptorSeed: UInt64 = 0xACCE55
switch command {
case "corpus":
    guard let out = positional.first else { fail("corpus needs an output file") }
    let made = AdvertisementCorpus(count: options["count"] ?? 100_000, seed: UInt64(options["seed"] ?? 0x5EED))
    write(made.file, to: out)
    print("corpus items=\(made.payloads.count) bytes=\(made.file.count)")
case "parse":
    let bench = IntakeBenchmarks(corpus: corpus(at: 0))
    let limit = min(options["limit"] ?? .max, bench.corpus.payloads.count)
    report("parse", items: limit) { bench.parse(limit: limit) }
case "match":
    let bench = IntakeBenchmarks(corpus: corpus(at: 0))
    let limit = min(options["limit"] ?? .max, bench.corpus.payloads.count)
    let index = IntakeBenchmarks.index(descriptors: options["descriptors"] ?? 1_000, apps: apps, seed: descriptorSeed)
    if options["reused"] == 1 {
        report("match", items: limit) { bench.parseAndMatchReused(limit: limit, index: index) }
    } else {
        report("match", items: limit) { bench.parseAndMatch(limit: limit, index: index) }
    }
case "intake":
    let loaded = corpus(at: 0)
    let limit = min(options["limit"] ?? .max, loaded.payloads.count)
    let events = IntakeBenchmarks.events(loaded, limit: limit, devices: options["devices"] ?? limit)
    let index = IntakeBenchmarks.index(descriptors: options["descriptors"] ?? 1_000, apps: apps, seed: descriptorSeed)
    // One pipeline for every run: later runs meet devices the registry knows.
    let intake = IntakeBenchmarks.Intake(index: index)
    for _ in 0..<(options["warm"] ?? 0) { _ = intake.run(events) }
    report("intake", items: events.count) { intake.run(events) }
case "capture":
    guard positional.count == 2, let reports = options["reports"] else { fail("capture needs CORPUS OUT --reports N") }
    let loaded = corpus(at: 0)
    do {
        write(try HCIAdvertisingEvent.capture(loaded, reports: reports, devices: options["devices"] ?? reports),
              to: positional[1])
    } catch {
        fail("cannot encode the capture: \(error)")
    }
    print("capture reports=\(reports)")
case "descriptors":
    guard let out = positional.first else { fail("descriptors needs an output file") }
    let count = options["descriptors"] ?? 1_000
    var workload = Workload(seed: descriptorSeed)
    let text = (0..<count).map { DescriptorFileText.section(workload.descriptor(), name: "d\($0 + 1)", app: "app\($0 % apps)") }
    write(Array(text.joined(separator: "\n").utf8), to: out)
    print("descriptors items=\(count)")
case "matching":
    printMatchingTable()
case "resolve":
    let crowd = ResolutionBenchmarks(bonds: options["bonds"] ?? 10, addresses: options["addresses"] ?? 1_000,
                                     strangers: options["strangers"] ?? 1_000, seed: 0x5EED)
    let blocks = crowd.blocksPerReport()
    print("resolve-blocks items=\(crowd.reports.count) cold=\(String(format: "%.2f", blocks.cold)) warm=\(String(format: "%.2f", blocks.warm))")
    // Cold: a fresh resolver each pass, so every report is an address's first.
    report("resolve-cold", items: crowd.reports.count) {
        var resolver = crowd.resolver()
        return ResolutionBenchmarks.pass(&resolver, crowd.reports)
    }
    // Warm: one resolver that has seen every address once already.
    var warm = crowd.resolver()
    _ = ResolutionBenchmarks.pass(&warm, crowd.reports)
    report("resolve-warm", items: crowd.reports.count) { ResolutionBenchmarks.pass(&warm, crowd.reports) }
    // The daemon's path, side by side with its anchor (no IRK known), cold then warm.
    let events = crowd.events
    for resolving in [false, true] {
        let name = resolving ? "resolve-pipeline" : "resolve-pipeline-anchor"
        report("\(name)-cold", items: events.count) { crowd.intake(resolving: resolving).run(events) }
    }
    let steady = [false, true].map { resolving in
        let intake = crowd.intake(resolving: resolving)
        _ = intake.run(events)
        return intake
    }
    report("resolve-pipeline-anchor-warm", items: events.count) { steady[0].run(events) }
    report("resolve-pipeline-warm", items: events.count) { steady[1].run(events) }
default:
    fail("unknown command \(command)")
}
