import AccessoryCore
import Testing
@testable import AccessoryCodecs

@Suite struct GrantStoreCodecTests {
    static let grants = [
        Grant(accessory: AccessoryID(0xA1), app: "acme-sensor-logger", displayName: " Porch \\ light\nüñí ",
              state: .authorized,
              bluetooth: BluetoothDeviceIdentifier(address: HardwareAddress("AA:BB:CC:DD:EE:FF")!, addressType: .random)),
        Grant(accessory: AccessoryID(0x2), app: "cam", displayName: "Camera", state: .awaitingAuthorization,
              ssid: SSID(bytes: [0x41, 0xFF, 0x00, 0x5C])),
    ]

    @Test func roundTripsEveryField() throws {
        let decoded = try GrantStoreCodec.decode(GrantStoreCodec.encode(Self.grants))
        #expect(decoded.sorted { $0.accessory < $1.accessory } == Self.grants.sorted { $0.accessory < $1.accessory })
    }

    @Test func theWishToBeWokenRoundTrips() throws {
        var grants = Self.grants
        grants[1].observesPresence = true
        let bytes = GrantStoreCodec.encode(grants)
        #expect(String(decoding: bytes, as: UTF8.self).contains("ObservesPresence=yes\n"))
        #expect(try GrantStoreCodec.decode(bytes).first { $0.accessory == AccessoryID(0x2) }?.observesPresence == true)
    }

    /// A store written before the wish existed: the exact bytes the earlier
    /// encoder wrote load unchanged, and without wishes the encoder still writes them.
    @Test func aStoreWrittenBeforeWishesLoadsUnchanged() throws {
        let body = Array("""
            # accessoryd grant store: written atomically by accessoryd; do not edit.
            [Store]
            Version=1
            Grants=1
            [Grant 00000000000000a1]
            App=acme
            DisplayName=Porch
            State=authorized
            BluetoothAddress=AA:BB:CC:DD:EE:FF
            BluetoothAddressType=1

            """.utf8)
        let file = body + Array("[Checksum]\nFNV-1a-64=\(GrantStoreCodec.checksum(body))\n".utf8)
        let grants = try GrantStoreCodec.decode(file)
        #expect(grants.map(\.observesPresence) == [false])
        #expect(GrantStoreCodec.encode(grants) == file)
    }

    @Test func anEmptyStoreRoundTrips() throws {
        #expect(try GrantStoreCodec.decode(GrantStoreCodec.encode([])) == [])
    }

    @Test func aNameCannotInjectLines() {
        let text = String(decoding: GrantStoreCodec.encode(Self.grants), as: UTF8.self)
        #expect(text.contains("DisplayName=\\x20Porch \\x5c light\\x0aüñí\\x20\n"))
    }

    /// A write cut short at any byte must be recognised, never half-loaded.
    @Test func everyTruncationIsRejected() {
        let bytes = GrantStoreCodec.encode(Self.grants)
        for length in 0..<bytes.count {
            #expect(throws: GrantStoreError.self, "length \(length)") {
                try GrantStoreCodec.decode(Array(bytes.prefix(length)))
            }
        }
    }

    @Test func everyFlippedByteIsRejected() {
        let bytes = GrantStoreCodec.encode(Self.grants)
        for index in bytes.indices {
            var damaged = bytes
            damaged[index] ^= 0x01
            #expect(throws: GrantStoreError.self, "byte \(index)") { try GrantStoreCodec.decode(damaged) }
        }
    }

    @Test func aNewerVersionIsNamed() throws {
        let body = Array("[Store]\nVersion=2\nGrants=0\n".utf8)
        let file = body + Array("[Checksum]\nFNV-1a-64=\(GrantStoreCodec.checksum(body))\n".utf8)
        #expect(throws: GrantStoreError.unsupportedVersion(2)) { try GrantStoreCodec.decode(file) }
    }

    @Test func aCountThatDisagreesIsMalformed() throws {
        let body = Array("[Store]\nVersion=1\nGrants=3\n".utf8)
        let file = body + Array("[Checksum]\nFNV-1a-64=\(GrantStoreCodec.checksum(body))\n".utf8)
        #expect(throws: GrantStoreError.malformed("grant count does not match")) { try GrantStoreCodec.decode(file) }
    }
}
