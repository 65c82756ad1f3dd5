import AccessoryCore
import AccessoryDecisions
import Testing
import TestSupport
@testable import AccessoryDaemon

/// The monitor's byte encoder against the String formatter it replaced, kept
/// here as the reference: on seeded random advertisements with hostile names,
/// every UUID width, repeats and several values per company, and matches,
/// both must write the same line byte for byte.
@Suite struct MonitorLineEncoderTests {
    @Test func agreesWithTheStringFormatterOnRandomAdvertisements() {
        var random = SplitMix64(seed: 0x4D4F_4E49)
        let encoder = MonitorLineEncoder()
        for _ in 0..<3000 {
            let advertisement = Self.advertisement(&random)
            let matches = Self.matches(&random)
            encoder.removeAll()
            encoder.append(.bluetooth(advertisement, matches: matches))
            let expected = Reference.bluetooth(advertisement) + Reference.suffix(matches)
            #expect(encoder.bytes == Array(expected.utf8), "\(advertisement)")
            #expect(MonitorLine.format(.bluetooth(advertisement, matches: matches)) == expected)
        }
    }

    @Test func agreesOnEveryHostileName() {
        let encoder = MonitorLineEncoder()
        for name in Self.hostileNames {
            encoder.removeAll()
            encoder.appendQuoted(name)
            #expect(encoder.bytes == Array(Reference.quoted(name).utf8), "\(name)")
        }
    }

    /// One encoder writes line after line into the same storage: what a
    /// line left behind never leaks into the next.
    @Test func linesAfterOneAnotherAreEachTheirOwn() {
        var random = SplitMix64(seed: 77)
        let encoder = MonitorLineEncoder()
        var expected: [UInt8] = []
        for _ in 0..<200 {
            let advertisement = Self.advertisement(&random)
            let matches = Self.matches(&random)
            encoder.append(.bluetooth(advertisement, matches: matches))
            expected += Array((Reference.bluetooth(advertisement) + Reference.suffix(matches)).utf8)
        }
        #expect(encoder.bytes == expected)
    }

    // MARK: Random advertisements

    static let hostileNames: [[UInt8]] = [
        [], Array("Hall Sensor".utf8), Array(#"a "b" \c"#.utf8), [0x41, 0x0A, 0xFF, 0xC3, 0xA9],
        Array("Marcel’s Café".utf8), Array("a\nb\u{7F}\u{85}\u{202E}\u{2028}c".utf8), Array("💡 Lamp".utf8),
        Array("e\u{301}\u{200B}\u{FEFF}".utf8), Array("\u{E000}\u{10FFFF}\u{378}".utf8), [0x00, 0x1B, 0x5B, 0x33, 0x31, 0x6D],
        [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x22, 0x5C, 0x7E, 0x7F, 0x80],
        Array("\\\u{301}".utf8), Array("\u{2029}\u{061C}\u{00AD}".utf8),
    ]

    static func bytes(_ random: inout SplitMix64, upTo count: Int) -> [UInt8] {
        (0..<Int.random(in: 0...count, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    static func name(_ random: inout SplitMix64) -> [UInt8] {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: hostileNames.randomElement(using: &random)!
        case 1: bytes(&random, upTo: 12)
        case 2: (0..<Int.random(in: 0...12, using: &random)).map { _ in UInt8.random(in: 0x20...0x7E, using: &random) }
        default:
            // Valid UTF-8 from scalars anywhere, control and unassigned ones included.
            Array(String(String.UnicodeScalarView((0..<Int.random(in: 1...6, using: &random)).compactMap { _ in
                Unicode.Scalar(UInt32.random(in: 0...0x2FFFF, using: &random))
            })).utf8)
        }
    }

    static func uuid(_ random: inout SplitMix64) -> BluetoothUUID {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: BluetoothUUID(uuid16: [0x180F, 0xFE2C, 0x0000, 0xFFFF].randomElement(using: &random)!)
        case 1: BluetoothUUID(uuid16: UInt16.random(in: 0...0xFFFF, using: &random))
        case 2: BluetoothUUID(uuid32: UInt32.random(in: 0x1_0000...UInt32.max, using: &random))
        default: BluetoothUUID(high: random.next(), low: random.next())
        }
    }

    static func uuids(_ random: inout SplitMix64, from pool: [BluetoothUUID]) -> [BluetoothUUID] {
        (0..<Int.random(in: 0...4, using: &random)).map { _ in pool.randomElement(using: &random)! }
    }

    static func advertisement(_ random: inout SplitMix64) -> Advertisement {
        // A small pool, so lists repeat UUIDs and complete and incomplete lists share some.
        let pool = (0..<5).map { _ in uuid(&random) }
        var data = AdvertisingData(
            flags: Bool.random(using: &random) ? UInt8.random(in: 0...255, using: &random) : nil,
            completeLocalName: Bool.random(using: &random) ? name(&random) : nil,
            shortenedLocalName: Bool.random(using: &random) ? name(&random) : nil,
            completeServiceUUIDs: uuids(&random, from: pool),
            incompleteServiceUUIDs: uuids(&random, from: pool),
            appearance: Bool.random(using: &random) ? UInt16.random(in: 0...0xFFFF, using: &random) : nil,
            txPowerLevel: Bool.random(using: &random) ? Int8.random(in: -128...127, using: &random) : nil)
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            data.serviceData[pool.randomElement(using: &random)!] = bytes(&random, upTo: 6)
        }
        for _ in 0..<Int.random(in: 0...5, using: &random) {
            data.addManufacturerData(bytes(&random, upTo: 6), for: [0x004C, 0x0006, 0xFFFF, 0x0075].randomElement(using: &random)!)
        }
        let address = BluetoothAddress(rawValue: random.next() & 0xFFFF_FFFF_FFFF)!
        let type = [BluetoothAddressType.public, .random, .publicIdentity, .randomIdentity].randomElement(using: &random)!
        return Advertisement(
            device: BluetoothDeviceIdentifier(address: address, addressType: type),
            properties: AdvertisingProperties(rawValue: UInt8.random(in: 0...31, using: &random)),
            rssi: Bool.random(using: &random) ? Int8.random(in: -128...126, using: &random) : nil,
            txPower: Int.random(in: 0..<4, using: &random) == 0 ? Int8.random(in: -128...127, using: &random) : nil,
            data: data,
            controllerIndex: Bool.random(using: &random) ? UInt16.random(in: 0...UInt16.max, using: &random) : nil)
    }

    static func matches(_ random: inout SplitMix64) -> Set<DescriptorMatch> {
        // App names that sort differently as whole descriptions than by app alone, and some not ASCII.
        let apps: [AppID] = ["acme", "acme-logger", "a", "a!", "ab", "zeta.app_1", "café", "cafe\u{301}", "Ωmega"]
        return Set((0..<Int.random(in: 0...4, using: &random)).map { _ in
            DescriptorMatch(
                app: apps.randomElement(using: &random)!,
                descriptorID: DescriptorID([0, 1, 2, 9, 10, 11, 100, UInt64.max].randomElement(using: &random)!))
        })
    }

    /// The String formatter the encoder replaced, as it was.
    enum Reference {
        static func bluetooth(_ advertisement: Advertisement) -> String {
            let data = advertisement.data
            var fields = [
                "bluetooth",
                advertisement.controllerIndex.map { "hci\($0)" } ?? "replay",
                advertisement.device.description,
                "rssi=" + (advertisement.rssi.map(String.init) ?? "none"),
            ]
            if let txPower = advertisement.txPower ?? data.txPowerLevel { fields.append("tx_power=\(txPower)") }
            fields.append("connectable=" + (advertisement.isConnectable ? "yes" : "no"))
            fields.append("scannable=" + (advertisement.isScannable ? "yes" : "no"))
            if let name = data.localNameBytes {
                let kind = data.completeLocalName == nil ? "short_name" : "name"
                fields.append("\(kind)=" + quoted(name))
            }
            if !data.serviceUUIDs.isEmpty {
                fields.append("uuids=" + data.serviceUUIDs.map(\.description).joined(separator: ","))
            }
            if !data.serviceData.isEmpty {
                fields.append("service_data=" + data.serviceData.sorted { $0.key < $1.key }
                    .map { "\($0.key):\(hexString($0.value))" }.joined(separator: ","))
            }
            if !data.manufacturerDataValues.isEmpty {
                fields.append("manufacturer=" + data.manufacturerDataValues.sorted { $0.key < $1.key }
                    .flatMap { company, values in values.map { "\(hex16(company)):\(hexString($0))" } }
                    .joined(separator: ","))
            }
            if let appearance = data.appearance { fields.append("appearance=0x" + hex16(appearance)) }
            if let flags = data.flags { fields.append("flags=0x" + hexByte(flags)) }
            return fields.joined(separator: " ")
        }

        static func quoted(_ bytes: [UInt8]) -> String {
            var text = "\""
            if let name = String(validating: bytes, as: UTF8.self) {
                for scalar in name.unicodeScalars {
                    if scalar == "\"" || scalar == "\\" {
                        text += "\\" + String(scalar)
                    } else if isEscaped(scalar) {
                        for byte in String(scalar).utf8 { text += "\\x" + hexByte(byte) }
                    } else {
                        text.unicodeScalars.append(scalar)
                    }
                }
            } else {
                for byte in bytes {
                    switch byte {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                        text += "\\" + String(UnicodeScalar(byte))
                    case 0x20...0x7E:
                        text.append(Character(UnicodeScalar(byte)))
                    default:
                        text += "\\x" + hexByte(byte)
                    }
                }
            }
            return text + "\""
        }

        static func suffix(_ matches: Set<DescriptorMatch>) -> String {
            guard !matches.isEmpty else { return "" }
            return " matches=" + matches.map(\.description).sorted().joined(separator: ",")
        }

        private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate, .privateUse: true
            default: false
            }
        }

        private static func hex16(_ value: UInt16) -> String {
            hexByte(UInt8(truncatingIfNeeded: value >> 8)) + hexByte(UInt8(truncatingIfNeeded: value))
        }
    }
}

/// `--monitor`'s output: lines wait in the buffer until a flush (or the
/// threshold), and then go out whole, in order, each with its newline.
@Suite struct MonitorOutputTests {
    static let device = BluetoothDeviceIdentifier(address: BluetoothAddress("C0:FF:EE:00:00:01")!, addressType: .random)

    @Test func linesWaitForTheFlushAndGoOutWhole() {
        var written: [[UInt8]] = []
        let output = MonitorOutput { written.append(Array($0)) }
        output.write(.bluetooth(Advertisement(device: Self.device, rssi: -40), matches: []))
        output.write(.bluetooth(Advertisement(device: Self.device, controllerIndex: 1), matches: [
            DescriptorMatch(app: "acme", descriptorID: 2),
        ]))
        #expect(written.isEmpty)
        output.flush()
        #expect(written.map { String(decoding: $0, as: UTF8.self) } == [
            "bluetooth replay C0:FF:EE:00:00:01/random rssi=-40 connectable=no scannable=no\n"
                + "bluetooth hci1 C0:FF:EE:00:00:01/random rssi=none connectable=no scannable=no matches=acme#2\n"
        ])
        output.flush()
        #expect(written.count == 1)
    }

    @Test func aFullBufferIsWrittenWithoutWaitingForTheFlush() {
        var written: [UInt8] = []
        var writes = 0
        let output = MonitorOutput { written += $0; writes += 1 }
        let sighting = DiscoveryPipeline.Sighting.bluetooth(Advertisement(device: Self.device), matches: [])
        let line = Array((MonitorLine.format(sighting) + "\n").utf8)
        let count = MonitorOutput.flushThreshold / line.count + 1
        for _ in 0..<count { output.write(sighting) }
        #expect(writes == 1)
        #expect(written == Array([[UInt8]](repeating: line, count: count).joined()))
    }
}
