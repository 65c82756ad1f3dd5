import AccessoryCore
import TestSupport

/// A seeded corpus of distinct legacy advertising payloads (≤ 31 octets) of
/// the kinds a gateway hears: iBeacons, Eddystone frames, manufacturer data of
/// many companies, 16- and 128-bit service UUID lists, service data and names.
/// Written to a file that both this benchmark and the Python side read, so
/// both parse the very same bytes.
///
/// File format: one octet of length, then that many payload octets, repeated.
struct AdvertisementCorpus {
    var payloads: [[UInt8]]

    /// Companies the corpus draws from: the Workload's (so the apps'
    /// descriptors hit) and 200 more, for spread.
    static let companies: [UInt16] = Workload.companies + (0..<200).map { UInt16(0x0200 + $0 * 7) }
    static let names = ["Acme Sensor", "ACME-", "Thermo", "Band", "Buds", "TV", "Beacon", "Tag", "Lock", "Plug",
                        "LYWSD03MMC", "ATC_", "Govee_H5075_", "Ruuvi ", "SwitchBot", "Mi Band"]

    init(count: Int, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var seen = Set<[UInt8]>()
        payloads = []
        payloads.reserveCapacity(count)
        while payloads.count < count {
            let payload = Self.payload(&rng)
            precondition(payload.count <= 31, "a legacy payload holds at most 31 octets")
            if seen.insert(payload).inserted { payloads.append(payload) }
        }
    }

    init(file bytes: [UInt8]) {
        payloads = []
        var offset = 0
        while offset < bytes.count {
            let length = Int(bytes[offset])
            precondition(offset + 1 + length <= bytes.count, "corpus file cut short at \(offset)")
            payloads.append(Array(bytes[(offset + 1)..<(offset + 1 + length)]))
            offset += 1 + length
        }
    }

    var file: [UInt8] { payloads.flatMap { [UInt8($0.count)] + $0 } }

    // MARK: The kinds of payload

    private static func payload(_ rng: inout SplitMix64) -> [UInt8] {
        func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) } }
        func structure(_ type: UInt8, _ body: [UInt8]) -> [UInt8] { [UInt8(body.count + 1), type] + body }
        func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        let flags = structure(0x01, [0x06])
        let company = companies.randomElement(using: &rng)!
        let name = Array((names.randomElement(using: &rng)! + String(Int.random(in: 0..<100, using: &rng))).utf8)
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<18:  // iBeacon: Apple's 0x02 0x15, proximity UUID, major, minor, measured power.
            return flags + structure(0xFF, le16(0x004C) + [0x02, 0x15] + bytes(16) + bytes(4) + [0xC5])
        case 18..<30:  // Apple continuity messages (nearby, handoff): short, frequent, ever-changing.
            return flags + structure(0xFF, le16(0x004C) + [[0x10, 0x0C, 0x09, 0x16].randomElement(using: &rng)!]
                + bytes(Int.random(in: 5...14, using: &rng)))
        case 30..<40:  // Eddystone UID / URL / TLM over service data 0xFEAA.
            let frame: [UInt8]
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: frame = [0x00, 0xEE] + bytes(16) + [0, 0]
            case 1: frame = [0x10, 0xEE, 0x03] + Array("acme.example/\(Int.random(in: 0..<999, using: &rng))".utf8)
            default: frame = [0x20, 0x00] + bytes(12)
            }
            return flags + structure(0x03, le16(0xFEAA)) + structure(0x16, le16(0xFEAA) + frame)
        case 40..<62:  // Manufacturer data of one of many companies, maybe with a name.
            let named = Bool.random(using: &rng)
            let body = le16(company) + bytes(Int.random(in: 2...(named ? 8 : 22), using: &rng))
            return flags + structure(0xFF, body) + (named ? structure(0x09, Array(name.prefix(10))) : [])
        case 62..<74:  // A 16-bit UUID list and service data (sensors: 0x181A, 0xFCD2, 0xFE95...).
            let services = Workload.services.compactMap { $0.shortValue.map { UInt16(truncatingIfNeeded: $0) } } + [0x181A, 0xFE95, 0xFCD2, 0x180F]
            let uuid = services.randomElement(using: &rng)!
            let list = (0..<Int.random(in: 1...3, using: &rng)).flatMap { _ in le16(services.randomElement(using: &rng)!) }
            return flags + structure(0x03, list) + structure(0x16, le16(uuid) + bytes(Int.random(in: 2...10, using: &rng)))
        case 74..<84:  // One 128-bit service UUID and a short name.
            return flags + structure(0x07, bytes(16)) + structure(0x08, Array(name.prefix(8)))
        case 84..<94:  // A complete name, TX power and appearance.
            return flags + structure(0x09, Array(name.prefix(16))) + structure(0x0A, [0xF4]) + structure(0x19, bytes(2))
        default:  // A scan response: a name and manufacturer data, no flags.
            return structure(0x09, Array(name.prefix(12))) + structure(0xFF, le16(company) + bytes(4))
        }
    }
}
