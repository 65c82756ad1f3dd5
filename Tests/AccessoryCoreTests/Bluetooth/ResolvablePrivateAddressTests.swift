import Testing
@testable import AccessoryCore

@Suite struct ResolvablePrivateAddressTests {
    func device(_ text: String, _ type: BluetoothAddressType = .random) -> BluetoothDeviceIdentifier {
        BluetoothDeviceIdentifier(address: HardwareAddress(text)!, addressType: type)
    }

    @Test func onlyARandomAddressWhoseTopBitsAre01IsResolvable() {
        // The Core Specification's sample: prand 708194 (0111 0000 …), hash 0dfbaa.
        let sample = ResolvablePrivateAddress(device("70:81:94:0D:FB:AA"))
        #expect(sample?.prand == 0x70_8194)
        #expect(sample?.hash == 0x0D_FBAA)
        #expect(ResolvablePrivateAddress(device("70:81:94:0D:FB:AA", .public)) == nil)
        #expect(ResolvablePrivateAddress(device("70:81:94:0D:FB:AA", .randomIdentity)) == nil)
        #expect(ResolvablePrivateAddress(device("C0:81:94:0D:FB:AA")) == nil)  // 11: static random
        #expect(ResolvablePrivateAddress(device("30:81:94:0D:FB:AA")) == nil)  // 00: non-resolvable private
        #expect(ResolvablePrivateAddress(device("BF:FF:FF:FF:FF:FF")) == nil)  // 10: reserved
        #expect(ResolvablePrivateAddress(device("40:00:00:00:00:00")) != nil)
        #expect(ResolvablePrivateAddress(device("7F:FF:FF:FF:FF:FF")) != nil)
    }

    @Test func aMadeAddressCarriesTheMarkerAndTheKeysHash() {
        // A stand-in for AES whose output is known: the made address must hold
        // prand with the marker bits and the last three octets of e(k, r').
        struct Echo: AES128Encryptor {
            func encrypt(_ block: AES128Block) -> AES128Block { AES128Block(high: 0, low: block.low ^ 0xABCDEF) }
        }
        let made = ResolvablePrivateAddress(prand: 0xFF_1234, key: Echo())
        #expect(made.prand == 0x7F_1234)
        #expect(made.hash == 0x7F_1234 ^ 0xABCDEF)
        #expect(ResolvablePrivateAddress(made.device) == made)
        #expect(made.isMade(by: Echo()))
    }

    @Test func blocksReadAndWriteTheirOctetsMostSignificantFirst() {
        let octets: [UInt8] = Array(0..<16)
        let block = AES128Block(octets: octets)!
        #expect(block.high == 0x0001_0203_0405_0607)
        #expect(block.low == 0x0809_0A0B_0C0D_0E0F)
        #expect(block.octets == octets)
        #expect(AES128Block(littleEndianOctets: octets.reversed()) == block)
        #expect(AES128Block(octets: octets.dropLast()) == nil)
    }

    @Test func aKeyNeverShowsInItsDescription() {
        let key = SecurityKey(hex: "ec0234a357c8ad05341010a60a397d9b")!
        #expect(key.hex == "ec0234a357c8ad05341010a60a397d9b")
        #expect(!"\(key)".contains("ec02"))
        #expect(SecurityKey(hex: "ec0234a357c8ad05341010a60a397d9") == nil)
        #expect(SecurityKey(hex: "zz0234a357c8ad05341010a60a397d9b") == nil)
    }
}

@Suite struct GenerationalMemoryTests {
    @Test func keepsAtMostItsCapacityAndWhatWasUsedSinceTheLastTurn() {
        var memory = GenerationalMemory<Int, String>(capacity: 8)
        memory.remember("kept", for: -1)
        for key in 0..<100 {
            memory.remember("\(key)", for: key)
            #expect(memory.count <= 8)
            #expect(memory.value(for: -1) == "kept")
        }
        #expect(memory.value(for: 0) == nil)  // neither used since nor recent: dropped
        #expect(memory.value(for: 99) == "99")
    }

    @Test func forgetsWhatItIsToldToInBothGenerations() {
        var memory = GenerationalMemory<Int, Int>(capacity: 4)
        for key in 0..<4 { memory.remember(key % 2, for: key) }  // two in the older generation, two in the current
        memory.forget { $0 == 1 }
        #expect(memory.count == 2)
        #expect(memory.value(for: 1) == nil && memory.value(for: 3) == nil)
        #expect(memory.value(for: 0) == 0 && memory.value(for: 2) == 0)
    }
}
