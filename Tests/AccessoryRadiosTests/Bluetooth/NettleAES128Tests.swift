import AccessoryCore
import AccessoryRadios
import Testing

@Suite struct NettleAES128Tests {
    /// FIPS-197's example vector (Appendix C.1): the wrapper hands Nettle the octets in order.
    @Test func encryptsTheStandardsExampleBlock() {
        let key = AES128Block(octets: Array(0..<16))!
        let plaintext = AES128Block(octets: bytes(fromHex: "00112233445566778899aabbccddeeff")!)!
        let encrypted = NettleAES128().encryptor(key: key).encrypt(plaintext)
        #expect(hexString(encrypted.octets) == "69c4e0d86a7b0430d8cdb78070b4c55a")
    }

    /// The Core Specification's sample data for `ah` (Vol 3 Part H, Appendix D),
    /// every value most significant octet first: IRK ec0234a3…, prand 708194, hash 0dfbaa.
    @Test func ahGivesTheSpecificationsSampleHash() {
        let irk = SecurityKey(hex: "ec0234a357c8ad05341010a60a397d9b")!
        let key = NettleAES128().encryptor(key: irk.value)
        #expect(RandomAddressHash.ah(key, 0x70_8194) == 0x0D_FBAA)
        let address = ResolvablePrivateAddress(
            BluetoothDeviceIdentifier(address: HardwareAddress("70:81:94:0D:FB:AA")!, addressType: .random))!
        #expect(address.isMade(by: key))
        #expect(ResolvablePrivateAddress(prand: 0x70_8194, key: key) == address)
    }
}
