import AccessoryCore
import Testing
@testable import AccessoryCodecs

/// The management events and commands of a pairing without bluetoothd,
/// from and to bytes as mgmt-api.txt lays them out; sizes that are wrong
/// are named errors, never a guess.
@Suite struct ManagementPairingEventTests {
    /// C0:11:22:33:44:55, LE random (mgmt type 2), as the kernel sends it.
    static let addressBytes: [UInt8] = [0x55, 0x44, 0x33, 0x22, 0x11, 0xC0, 0x02]
    static let device = BluetoothDeviceIdentifier(address: HardwareAddress("C0:11:22:33:44:55")!, addressType: .random)
    /// 00 01 02 … 0f on the wire, least significant first: 0f0e…00 as the specification prints it.
    static let keyBytes: [UInt8] = Array(0...15)
    static let keyHex = "0f0e0d0c0b0a09080706050403020100"

    static func packet(_ code: UInt16, controller: UInt16 = 0, _ parameters: [UInt8]) -> [UInt8] {
        [UInt8(code & 0xFF), UInt8(code >> 8), UInt8(controller & 0xFF), UInt8(controller >> 8),
         UInt8(parameters.count & 0xFF), UInt8(parameters.count >> 8)] + parameters
    }

    @Test func userConfirmationRequestForJustWorksAndForANumber() throws {
        let justWorks = try ManagementPairingEvent.decode(Self.packet(0x000F, Self.addressBytes + [1, 0, 0, 0, 0]))
        #expect(justWorks == .userConfirmationRequest(controller: 0, device: Self.device, justWorks: true, value: 0))
        // 123456 = 0x0001E240, little-endian.
        let number = try ManagementPairingEvent.decode(Self.packet(0x000F, controller: 1, Self.addressBytes + [0, 0x40, 0xE2, 0x01, 0x00]))
        #expect(number == .userConfirmationRequest(controller: 1, device: Self.device, justWorks: false, value: 123_456))
    }

    @Test func passkeyRequestAndNotify() throws {
        #expect(try ManagementPairingEvent.decode(Self.packet(0x0010, Self.addressBytes)) == .userPasskeyRequest(controller: 0, device: Self.device))
        #expect(try ManagementPairingEvent.decode(Self.packet(0x0017, Self.addressBytes + [0x40, 0xE2, 0x01, 0x00, 2]))
                == .passkeyNotify(controller: 0, device: Self.device, passkey: 123_456, entered: 2))
    }

    @Test func newLongTermKeyOfSecureConnections() throws {
        // Store hint, address, type 2 (P-256 unauthenticated), central 0, size 16, EDIV 0, Rand 0, value.
        let parameters = [1] + Self.addressBytes + [0x02, 0x00, 16, 0, 0] + [UInt8](repeating: 0, count: 8) + Self.keyBytes
        guard case .newLongTermKey(0, let key)? = try ManagementPairingEvent.decode(Self.packet(0x000A, parameters)) else {
            Issue.record("not a New Long Term Key")
            return
        }
        #expect(key.device == Self.device && key.storeHint && key.key.hex == Self.keyHex)
        #expect(key.longTermKey == LongTermKey(key: SecurityKey(hex: Self.keyHex)!, keySize: 16, authenticated: false, secureConnections: true))
    }

    @Test func legacyKeysAreKeptOnlyForThisSideAsCentral() throws {
        let rand: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        func key(central: UInt8) throws -> ManagementLongTermKey? {
            let parameters = [1] + Self.addressBytes + [0x01, central, 7, 0x34, 0x12] + rand + Self.keyBytes
            guard case .newLongTermKey(_, let key)? = try ManagementPairingEvent.decode(Self.packet(0x000A, parameters)) else { return nil }
            return key
        }
        let central = try #require(try key(central: 1)?.longTermKey)
        #expect(central.ediv == 0x1234 && central.rand == 0x0807_0605_0403_0201 && central.keySize == 7)
        #expect(central.authenticated && !central.secureConnections)
        #expect(try key(central: 0)?.longTermKey == nil)
    }

    @Test func newIRKNamesTheIdentityBehindThePrivateAddress() throws {
        let rpa: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x46]
        let parameters = [1] + rpa + Self.addressBytes + Self.keyBytes
        #expect(try ManagementPairingEvent.decode(Self.packet(0x0018, parameters)) == .newIdentityResolvingKey(
            controller: 0, randomAddress: HardwareAddress("46:05:04:03:02:01")!, identity: Self.device, key: SecurityKey(hex: Self.keyHex)!))
    }

    @Test func newCSRKSaysWhoseKeyItIs() throws {
        let parameters = [0] + Self.addressBytes + [0x03] + Self.keyBytes
        #expect(try ManagementPairingEvent.decode(Self.packet(0x0019, parameters)) == .newSignatureResolvingKey(
            controller: 0, device: Self.device, remote: true, authenticated: true, key: SecurityKey(hex: Self.keyHex)!))
    }

    @Test func pairDeviceAnswersWithAndWithoutTheAddress() throws {
        #expect(try ManagementPairingEvent.decode(Self.packet(0x0001, [0x19, 0x00, 0x05] + Self.addressBytes))
                == .commandAnswered(opcode: 0x0019, controller: 0, status: 5, device: Self.device))
        #expect(try ManagementPairingEvent.decode(Self.packet(0x0002, [0x19, 0x00, 0x0D]))
                == .commandAnswered(opcode: 0x0019, controller: 0, status: 0x0D, device: nil))
    }

    @Test func disconnectedAndBREDRAndOtherEvents() throws {
        #expect(try ManagementPairingEvent.decode(Self.packet(0x000C, Self.addressBytes + [0x13]))
                == .deviceDisconnected(controller: 0, device: Self.device, reason: 0x13))
        // BR/EDR (type 0) is another transport's pairing: not decoded as one of accessoryd's.
        #expect(try ManagementPairingEvent.decode(Self.packet(0x0010, Array(Self.addressBytes.prefix(6)) + [0])) == nil)
        // New Settings is not about pairing.
        #expect(try ManagementPairingEvent.decode(Self.packet(0x0006, [1, 0, 0, 0])) == nil)
    }

    @Test(arguments: [
        (UInt16(0x000F), 12), (0x0010, 7), (0x0017, 12), (0x000A, 37), (0x0018, 30), (0x0019, 25), (0x000C, 8), (0x0011, 8),
    ])
    func shortAndLongEventsAreNamed(code: UInt16, length: Int) {
        for wrong in [length - 1, length + 1] {
            let parameters = Array(([UInt8](repeating: 1, count: 40) + Self.addressBytes).prefix(wrong))
            #expect(throws: ManagementDecodingError.wrongParameterLength(event: code, expected: length, actual: wrong)) {
                try ManagementPairingEvent.decode(Self.packet(code, parameters))
            }
        }
    }

    @Test func brokenHeadersAndAddressTypesAreNamed() {
        #expect(throws: ManagementDecodingError.truncatedHeader(length: 5)) { try ManagementPairingEvent.decode([0x0F, 0, 0, 0, 12]) }
        #expect(throws: ManagementDecodingError.parameterLengthMismatch(declared: 12, actual: 11)) {
            try ManagementPairingEvent.decode(Array(Self.packet(0x000F, Self.addressBytes + [1, 0, 0, 0, 0]).dropLast()))
        }
        #expect(throws: ManagementDecodingError.unknownAddressType(event: 0x0010, 7)) {
            try ManagementPairingEvent.decode(Self.packet(0x0010, Array(Self.addressBytes.prefix(6)) + [7]))
        }
        #expect(throws: ManagementDecodingError.wrongParameterLength(event: 0x0001, expected: 3, actual: 2)) {
            try ManagementPairingEvent.decode(Self.packet(0x0001, [0x19, 0x00]))
        }
    }

    @Test func commandsAsTheKernelReadsThem() {
        #expect(ManagementCommand.pair(Self.device, capability: .noInputNoOutput, controller: 0)
                == [0x19, 0, 0, 0, 8, 0] + Self.addressBytes + [0x03])
        #expect(ManagementCommand.reply(.confirm, passkeyRequest: false, to: Self.device, controller: 1)
                == [0x1C, 0, 1, 0, 7, 0] + Self.addressBytes)
        #expect(ManagementCommand.reply(.reject, passkeyRequest: false, to: Self.device, controller: 0)
                == [0x1D, 0, 0, 0, 7, 0] + Self.addressBytes)
        #expect(ManagementCommand.reply(.passkey(PairingPasskey(123_456)!), passkeyRequest: true, to: Self.device, controller: 0)
                == [0x1E, 0, 0, 0, 11, 0] + Self.addressBytes + [0x40, 0xE2, 0x01, 0x00])
        #expect(ManagementCommand.reply(.reject, passkeyRequest: true, to: Self.device, controller: 0)
                == [0x1F, 0, 0, 0, 7, 0] + Self.addressBytes)
        #expect(ManagementCommand.unpair(Self.device, disconnect: true, controller: 0) == [0x1B, 0, 0, 0, 8, 0] + Self.addressBytes + [1])
        #expect(ManagementCommand.cancelPair(Self.device, controller: 0) == [0x1A, 0, 0, 0, 7, 0] + Self.addressBytes)
        #expect(ManagementCommand.bondable(true, controller: 2) == [0x09, 0, 2, 0, 1, 0, 1])
        #expect(ManagementCommand.secureConnections(controller: 0) == [0x2D, 0, 0, 0, 1, 0, 1])
    }

    @Test func keysLoadBackAsTheyCame() {
        let key = SecurityKey(hex: Self.keyHex)!
        let bond = Bond(accessory: AccessoryID(0xA1), identity: Self.device, irk: key,
                        ltk: LongTermKey(key: key, ediv: 0x1234, rand: 0x0807_0605_0403_0201, keySize: 16, authenticated: false,
                                         secureConnections: false))
        #expect(ManagementCommand.loadLongTermKeys([bond], controller: 0)
                == [0x13, 0, 0, 0, 38, 0, 1, 0] + Self.addressBytes + [0x00, 0x01, 16, 0x34, 0x12] + [1, 2, 3, 4, 5, 6, 7, 8] + Self.keyBytes)
        #expect(ManagementCommand.loadIdentityResolvingKeys([bond], controller: 0)
                == [0x30, 0, 0, 0, 25, 0, 1, 0] + Self.addressBytes + Self.keyBytes)
        // No bonds: an empty list, which clears the controller's.
        #expect(ManagementCommand.loadLongTermKeys([], controller: 2) == [0x13, 0, 2, 0, 2, 0, 0, 0])
    }
}
