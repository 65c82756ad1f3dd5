import AccessoryCodecs
import AccessoryCore
import AccessoryDaemon
import AccessoryDecisions

/// The three depths of the intake measured over one corpus: the parser
/// alone, parse and match, and the whole path from HCI event bytes through
/// the ingest into the pipeline (registry, match, presence). Each returns a
/// checksum of what it found, so no work can be optimised away and both
/// runs of a comparison can be seen to agree.
struct IntakeBenchmarks {
    let corpus: AdvertisementCorpus

    func parse(limit: Int) -> Int {
        var found = 0
        for payload in corpus.payloads.prefix(limit) {
            let reading = AdvertisingDataParser.read(payload)
            // The companies with manufacturer data, what bdt_parse.py counts (its
            // dict's keys), read where they lie: building a table would measure the table.
            var last = -1
            reading.data.forEachManufacturerData { company, _ in
                if Int(company) != last { found &+= 1 }
                last = Int(company)
            }
            found &+= reading.damage.count
        }
        return found
    }

    /// Parsed as the daemon does: into an `Advertisement` of a device, then matched.
    /// The matches go to one reused buffer, as the registry's do.
    func parseAndMatch(limit: Int, index: MatchingIndex) -> Int {
        var matched = 0
        var found: [DescriptorMatch] = []
        for (n, payload) in corpus.payloads.prefix(limit).enumerated() {
            let advertisement = Advertisement(
                device: BluetoothDeviceIdentifier(address: BluetoothAddress(rawValue: UInt64(n))!, addressType: .random),
                properties: [.legacy], rssi: -60, data: AdvertisingDataParser.read(payload).data)
            index.matches(advertisement.data, rssi: advertisement.rssi.map(Int.init), into: &found)
            matched &+= found.count
        }
        return matched
    }

    /// Parsed as the ingest parses a known device's changed payload
    /// (`AdvertisingReportIngest`): into one `AdvertisingData` whose storage
    /// every parse reuses, then matched as above. What the daemon does for
    /// most reports; `parseAndMatch` is a new device's first report.
    func parseAndMatchReused(limit: Int, index: MatchingIndex) -> Int {
        var matched = 0
        var data = AdvertisingData()
        var damage: [ADParsingError] = []
        var found: [DescriptorMatch] = []
        for payload in corpus.payloads.prefix(limit) {
            payload.withUnsafeBytes { AdvertisingDataParser.read(bytesAt: $0, into: &data, damage: &damage) }
            damage.removeAll(keepingCapacity: true)
            index.matches(data, rssi: -60, into: &found)
            matched &+= found.count
        }
        return matched
    }

    /// Events prepared once: the socket's part is not measured.
    static func events(_ corpus: AdvertisementCorpus, limit: Int, devices: Int) -> [[UInt8]] {
        corpus.payloads.prefix(limit).enumerated().map {
            HCIAdvertisingEvent.bytes(payload: $0.element, device: $0.offset % devices, rssi: -60 - Int8($0.offset % 30))
        }
    }

    /// A pipeline as the daemon wires it, with `index` as every app's descriptors.
    final class Intake {
        let clock = ManualClock()
        let pipeline: DiscoveryPipeline
        let ingest: AdvertisingReportIngest
        var presenceEvents = 0

        init(index: MatchingIndex, identityCipher: (any AES128Cipher)? = nil) {
            pipeline = DiscoveryPipeline(clock: clock, identityCipher: identityCipher)
            pipeline.index = index
            ingest = AdvertisingReportIngest(pipeline: pipeline)
            pipeline.onPresence { [unowned self] _ in presenceEvents += 1 }
        }

        func run(_ events: [[UInt8]]) -> Int {
            // Through a buffer: an unoptimised build's array iterator allocates, and
            // the allocation test runs this loop in the debug build.
            events.withUnsafeBufferPointer { events in
                for index in events.indices {
                    clock.advance(by: .microseconds(150))
                    ingest.ingest(event: events[index], controller: 0)
                }
            }
            return ingest.advertisementCount &+ presenceEvents
        }
    }

    /// `count` descriptors spread over `apps` apps, from the seeded workload.
    static func index(descriptors count: Int, apps: Int, seed: UInt64) -> MatchingIndex {
        var workload = Workload(seed: seed)
        var index = MatchingIndex()
        var made = 0
        while made < count {
            do {
                try index.insert(workload.descriptor(), id: DescriptorID(UInt64(made + 1)), app: AppID("app\(made % apps)"))
                made += 1
            } catch {
                fatalError("the workload made an invalid descriptor: \(error)")
            }
        }
        return index
    }
}
