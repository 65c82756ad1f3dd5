import AccessoryCore
import Testing
@testable import AccessoryCodecs

@Suite struct BondStoreCodecTests {
    static let irk = SecurityKey(hex: "ec0234a357c8ad05341010a60a397d9b")!
    static let ltk = SecurityKey(hex: "bf01fb9d4ef3bc36d874f5394138684c")!
    static let csrk = SecurityKey(hex: "00112233445566778899aabbccddeeff")!

    static let bonds = [
        // LE Secure Connections, numeric comparison: no EDIV or Rand.
        Bond(accessory: AccessoryID(0xA1),
             identity: BluetoothDeviceIdentifier(address: HardwareAddress("C0:11:22:33:44:55")!, addressType: .random),
             irk: irk, ltk: LongTermKey(key: ltk, authenticated: true, secureConnections: true)),
        // Legacy Just Works, a short key, a CSRK.
        Bond(accessory: AccessoryID(0x2),
             identity: BluetoothDeviceIdentifier(address: HardwareAddress("00:1B:DC:07:32:EF")!, addressType: .public),
             irk: nil,
             ltk: LongTermKey(key: ltk, ediv: 0x1234, rand: 0x0123_4567_89AB_CDEF, keySize: 7,
                              authenticated: false, secureConnections: false),
             csrk: csrk),
        // An IRK alone (a bond adopted with no link key).
        Bond(accessory: AccessoryID(0x3),
             identity: BluetoothDeviceIdentifier(address: HardwareAddress("00:1B:DC:07:32:F0")!, addressType: .public),
             irk: irk),
        // Kept by bluetoothd: no key here, or only the IRK seen going by.
        Bond(accessory: AccessoryID(0x4),
             identity: BluetoothDeviceIdentifier(address: HardwareAddress("00:1B:DC:07:32:F1")!, addressType: .public),
             keeper: .bluetoothd),
        Bond(accessory: AccessoryID(0x5),
             identity: BluetoothDeviceIdentifier(address: HardwareAddress("C0:11:22:33:44:56")!, addressType: .random),
             irk: irk, keeper: .bluetoothd),
    ]

    /// A body with a valid checksum, so that the check behind it is what refuses it.
    func sealed(_ body: String) -> [UInt8] {
        let bytes = Array(body.utf8)
        return bytes + Array("[Checksum]\nFNV-1a-64=\(GrantStoreCodec.checksum(bytes))\n".utf8)
    }

    func refusal(_ bytes: [UInt8]) -> BondStoreError? {
        do { _ = try BondStoreCodec.decode(bytes) } catch { return error }
        return nil
    }

    static let header = "# accessoryd bond store: written atomically by accessoryd; do not edit.\n[Store]\nVersion=1\n"
    static let goodBond = """
        [Bond 00000000000000a1]
        BluetoothAddress=C0:11:22:33:44:55
        BluetoothAddressType=1
        IdentityResolvingKey=ec0234a357c8ad05341010a60a397d9b
        LongTermKey=bf01fb9d4ef3bc36d874f5394138684c
        LongTermKeySize=16
        LongTermKeyAuthenticated=yes
        LongTermKeySecureConnections=no
        LongTermKeyEDIV=4660
        LongTermKeyRand=0123456789abcdef

        """

    @Test func roundTripsEveryField() throws {
        #expect(try BondStoreCodec.decode(BondStoreCodec.encode(Self.bonds)) == Self.bonds.sorted { $0.accessory < $1.accessory })
        #expect(try BondStoreCodec.decode(BondStoreCodec.encode([])) == [])
    }

    @Test func writesTheDocumentedForm() throws {
        let legacy = Bond(
            accessory: AccessoryID(0xA1),
            identity: BluetoothDeviceIdentifier(address: HardwareAddress("C0:11:22:33:44:55")!, addressType: .random),
            irk: Self.irk,
            ltk: LongTermKey(key: Self.ltk, ediv: 4660, rand: 0x0123_4567_89AB_CDEF, authenticated: true, secureConnections: false))
        #expect(BondStoreCodec.encode([legacy]) == sealed(Self.header + "Bonds=1\n" + Self.goodBond))
        #expect(try BondStoreCodec.decode(sealed(Self.header + "Bonds=1\n" + Self.goodBond)) == [legacy])
    }

    @Test func aBondBluetoothdKeepsIsWrittenAsSuchAndNeedsNoKey() throws {
        let body = "[Bond 00000000000000a1]\nBluetoothAddress=C0:11:22:33:44:55\nBluetoothAddressType=1\nKeptBy=bluetoothd\n"
        let kept = Bond(accessory: AccessoryID(0xA1),
                        identity: BluetoothDeviceIdentifier(address: HardwareAddress("C0:11:22:33:44:55")!, addressType: .random),
                        keeper: .bluetoothd)
        #expect(BondStoreCodec.encode([kept]) == sealed(Self.header + "Bonds=1\n" + body))
        #expect(try BondStoreCodec.decode(sealed(Self.header + "Bonds=1\n" + body)) == [kept])
    }

    @Test func aFileCutShortOrChangedIsRefused() {
        let bytes = BondStoreCodec.encode(Self.bonds)
        for length in 0..<bytes.count {
            let cut = Array(bytes.prefix(length))
            #expect(refusal(cut) == .truncated || refusal(cut) == .checksumMismatch, "cut at \(length)")
        }
        var flipped = bytes
        flipped[bytes.count / 2] ^= 0x01
        #expect(refusal(flipped) == .checksumMismatch)
    }

    @Test func everyDamagedRecordIsRefusedByName() {
        let id = AccessoryID(0xA1)
        func bond(replacing old: String, with new: String) -> [UInt8] {
            sealed(Self.header + "Bonds=1\n" + Self.goodBond.replacing(old, with: new))
        }
        let cases: [(String, [UInt8], BondStoreError)] = [
            ("another version", sealed("[Store]\nVersion=2\nBonds=0\n"), .unsupportedVersion(2)),
            ("no version", sealed("[Store]\nBonds=0\n"), .noVersion),
            ("not the syntax", sealed("[Store]\nVersion=1\nec0234a357c8ad05341010a60a397d9b\n"), .syntax(line: 3)),
            ("another section", sealed(Self.header + "Bonds=0\n[Grant 00000000000000a1]\n"), .unexpectedSection(line: 5)),
            ("a bad accessory", sealed(Self.header + "Bonds=0\n[Bond a1]\n"), .unexpectedSection(line: 5)),
            ("the count", sealed(Self.header + "Bonds=2\n" + Self.goodBond), .countMismatch),
            ("no count", sealed(Self.header + Self.goodBond), .countMismatch),
            ("one bond twice", sealed(Self.header + "Bonds=2\n" + Self.goodBond + Self.goodBond), .duplicateBond(id)),
            ("one identity twice",
             sealed(Self.header + "Bonds=2\n" + Self.goodBond + Self.goodBond.replacing("a1]", with: "a2]")),
             .duplicateIdentity(AccessoryID(0xA2))),
            ("no address", bond(replacing: "BluetoothAddress=C0:11:22:33:44:55\n", with: ""), .missingField(id, "BluetoothAddress")),
            ("a bad address", bond(replacing: "C0:11:22:33:44:55", with: "C0:11:22:33:44"), .badValue(id, "BluetoothAddress")),
            ("no address type", bond(replacing: "BluetoothAddressType=1\n", with: ""), .missingField(id, "BluetoothAddressType")),
            ("a resolved type", bond(replacing: "BluetoothAddressType=1", with: "BluetoothAddressType=2"), .badValue(id, "BluetoothAddressType")),
            ("a short IRK", bond(replacing: "=ec0234a357c8ad05341010a60a397d9b", with: "=ec0234a357c8ad05341010a60a397d9"),
             .badValue(id, "IdentityResolvingKey")),
            ("an IRK not hex", bond(replacing: "=ec0234a357c8ad05341010a60a397d9b", with: "=xc0234a357c8ad05341010a60a397d9b"),
             .badValue(id, "IdentityResolvingKey")),
            ("a long LTK", bond(replacing: "=bf01fb9d4ef3bc36d874f5394138684c", with: "=bf01fb9d4ef3bc36d874f5394138684c00"),
             .badValue(id, "LongTermKey")),
            ("a bad CSRK", bond(replacing: "LongTermKeySize=16", with: "LongTermKeySize=16\nSignatureResolvingKey=00"),
             .badValue(id, "SignatureResolvingKey")),
            ("a key size below 7", bond(replacing: "LongTermKeySize=16", with: "LongTermKeySize=6"), .badValue(id, "LongTermKeySize")),
            ("a key size above 16", bond(replacing: "LongTermKeySize=16", with: "LongTermKeySize=17"), .badValue(id, "LongTermKeySize")),
            ("no key size", bond(replacing: "LongTermKeySize=16\n", with: ""), .missingField(id, "LongTermKeySize")),
            ("not yes or no", bond(replacing: "Authenticated=yes", with: "Authenticated=maybe"), .badValue(id, "LongTermKeyAuthenticated")),
            ("no pairing kind", bond(replacing: "LongTermKeySecureConnections=no\n", with: ""),
             .missingField(id, "LongTermKeySecureConnections")),
            ("legacy without EDIV", bond(replacing: "LongTermKeyEDIV=4660\n", with: ""), .missingField(id, "LongTermKeyEDIV")),
            ("an EDIV over 16 bits", bond(replacing: "EDIV=4660", with: "EDIV=65536"), .badValue(id, "LongTermKeyEDIV")),
            ("a short Rand", bond(replacing: "=0123456789abcdef", with: "=0123456789abcde"), .badValue(id, "LongTermKeyRand")),
            ("legacy without Rand", bond(replacing: "LongTermKeyRand=0123456789abcdef\n", with: ""), .missingField(id, "LongTermKeyRand")),
            ("EDIV under Secure Connections", bond(replacing: "SecureConnections=no", with: "SecureConnections=yes"),
             .unexpectedField(id, "LongTermKeyEDIV")),
            ("details without the key", bond(replacing: "LongTermKey=bf01fb9d4ef3bc36d874f5394138684c\n", with: ""),
             .unexpectedField(id, "LongTermKeySize")),
            ("no key at all",
             sealed(Self.header + "Bonds=1\n[Bond 00000000000000a1]\nBluetoothAddress=C0:11:22:33:44:55\nBluetoothAddressType=1\n"),
             .noKeys(id)),
            ("a keeper nobody knows", bond(replacing: "LongTermKeySize=16", with: "LongTermKeySize=16\nKeptBy=bluez"),
             .badValue(id, "KeptBy")),
        ]
        for (what, bytes, expected) in cases {
            let refused = refusal(bytes)
            #expect(refused == expected, "\(what)")
            // The log line an operator sees names the field, never a key.
            for key in [Self.irk, Self.ltk, Self.csrk] {
                #expect(!(refused?.description.contains(String(key.hex.prefix(8))) ?? false), "\(what)")
            }
        }
    }
}
