import AccessoryCore
import AccessoryDecisions
import AccessoryRadios

/// The resolvable-address crowd: bonded accessories advertising under
/// rotating private addresses among strangers who also use them. Cold is the
/// first sight of every address (a fresh resolver: a bonded address costs the
/// IRKs up to its own, a stranger's all of them); warm is every later report
/// of an address the resolver remembers (no AES). Real AES (Nettle).
struct ResolutionBenchmarks {
    let irks: [SecurityKey]
    /// Bonded addresses and strangers' addresses, interleaved as a scan would hear them.
    let reports: [BluetoothDeviceIdentifier]

    init(bonds: Int, addresses: Int, strangers: Int, seed: UInt64) {
        var state = seed
        func next() -> UInt64 {
            // SplitMix64, as the corpus generator: the same crowd on every run.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let cipher = NettleAES128()
        let keys = (0..<bonds).map { _ in SecurityKey(AES128Block(high: next(), low: next())) }
        let bonded = (0..<addresses).map { n in
            ResolvablePrivateAddress(prand: UInt32(truncatingIfNeeded: next()), key: cipher.encryptor(key: keys[n % bonds].value)).device
        }
        let strangerKeys = (0..<max(1, strangers / 10)).map { _ in cipher.encryptor(key: AES128Block(high: next(), low: next())) }
        let strange = (0..<strangers).map { n in
            ResolvablePrivateAddress(prand: UInt32(truncatingIfNeeded: next()), key: strangerKeys[n % strangerKeys.count]).device
        }
        var mixed = bonded + strange
        for index in mixed.indices.reversed() where index > 0 {
            mixed.swapAt(index, Int(next() % UInt64(index + 1)))
        }
        irks = keys
        reports = mixed
    }

    func resolver(cipher: any AES128Cipher = NettleAES128()) -> IdentityResolver {
        var resolver = IdentityResolver(cipher: cipher, capacity: max(IdentityResolver.defaultCapacity, 2 * reports.count))
        for (n, irk) in irks.enumerated() {
            resolver.add(irk: irk, identity: BluetoothDeviceIdentifier(address: BluetoothAddress(rawValue: 0xC0_0000_0000 | UInt64(n))!,
                                                                      addressType: .randomIdentity))
        }
        return resolver
    }

    /// One pass over the reports; the number resolved to a bond is the checksum.
    static func pass(_ resolver: inout IdentityResolver, _ reports: [BluetoothDeviceIdentifier]) -> Int {
        var resolved = 0
        for report in reports where resolver.identity(of: report) != nil { resolved &+= 1 }
        return resolved
    }

    /// Block encryptions per report, cold and warm, counted on the real cipher.
    func blocksPerReport() -> (cold: Double, warm: Double) {
        final class Tally: @unchecked Sendable { var blocks = 0 }
        struct Counting: AES128Cipher, AES128Encryptor {
            let tally: Tally
            let real: (any AES128Encryptor)?
            func encryptor(key: AES128Block) -> any AES128Encryptor { Counting(tally: tally, real: NettleAES128().encryptor(key: key)) }
            func encrypt(_ block: AES128Block) -> AES128Block {
                tally.blocks += 1
                return real!.encrypt(block)
            }
        }
        let tally = Tally()
        var counted = resolver(cipher: Counting(tally: tally, real: nil))
        _ = Self.pass(&counted, reports)
        let cold = Double(tally.blocks) / Double(reports.count)
        tally.blocks = 0
        _ = Self.pass(&counted, reports)
        return (cold, Double(tally.blocks) / Double(reports.count))
    }

    /// The bonded accessories' identities, as `resolver()` names them.
    var identities: [BluetoothDeviceIdentifier: SecurityKey] {
        var keys: [BluetoothDeviceIdentifier: SecurityKey] = [:]
        for (n, irk) in irks.enumerated() {
            keys[BluetoothDeviceIdentifier(address: BluetoothAddress(rawValue: 0xC0_0000_0000 | UInt64(n))!, addressType: .randomIdentity)] = irk
        }
        return keys
    }

    /// The crowd through the daemon's path: one LE Advertising Report event
    /// per report (flags, a name, service data), made once.
    var events: [[UInt8]] {
        let payload: [UInt8] = [0x02, 0x01, 0x06, 0x07, 0x09] + Array("Sensor".utf8) + [0x05, 0x16, 0x0F, 0x18, 0x01, 0x02]
        return reports.enumerated().map {
            HCIAdvertisingEvent.bytes(payload: payload, device: Int($0.element.address.rawValue), rssi: -60 - Int8($0.offset % 30))
        }
    }

    /// HCI event → ingest → pipeline (registry, presence; no descriptors),
    /// resolving the bonds' addresses, or not (`resolving` false: the anchor,
    /// the same reports through the same path with no IRK known).
    func intake(resolving: Bool) -> IntakeBenchmarks.Intake {
        let intake = IntakeBenchmarks.Intake(index: MatchingIndex(), identityCipher: resolving ? NettleAES128() : nil)
        if resolving { intake.pipeline.resolveAddresses(of: identities) }
        return intake
    }
}
