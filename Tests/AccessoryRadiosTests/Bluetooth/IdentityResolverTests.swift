import AccessoryCore
import AccessoryRadios
import Synchronization
import Testing

/// The resolver over the real cipher, counting the block encryptions it asks for.
@Suite struct IdentityResolverTests {
    final class Count: Sendable {
        let blocks = Atomic<Int>(0)
        var value: Int { blocks.load(ordering: .relaxed) }
    }

    struct CountingCipher: AES128Cipher {
        let count: Count
        func encryptor(key: AES128Block) -> any AES128Encryptor {
            Counting(real: NettleAES128().encryptor(key: key), count: count)
        }
        struct Counting: AES128Encryptor {
            let real: any AES128Encryptor
            let count: Count
            func encrypt(_ block: AES128Block) -> AES128Block {
                count.blocks.add(1, ordering: .relaxed)
                return real.encrypt(block)
            }
        }
    }

    /// How many block encryptions `work` cost.
    func cost(_ count: Count, _ work: () -> Void) -> Int {
        let before = count.value
        work()
        return count.value - before
    }

    /// The answer for `device`, and how many block encryptions it cost.
    func resolve(_ resolver: inout IdentityResolver, _ count: Count, _ device: BluetoothDeviceIdentifier)
        -> (identity: BluetoothDeviceIdentifier?, blocks: Int)
    {
        var found: BluetoothDeviceIdentifier?
        let blocks = cost(count) { found = resolver.identity(of: device) }
        return (found, blocks)
    }

    static func irk(_ n: Int) -> SecurityKey { SecurityKey(AES128Block(high: 0x1234_5678, low: UInt64(n))) }
    static func identity(_ n: Int) -> BluetoothDeviceIdentifier {
        BluetoothDeviceIdentifier(address: BluetoothAddress(rawValue: 0xC0_0000_0000 | UInt64(n))!, addressType: .randomIdentity)
    }
    /// An address the holder of IRK `n` would make.
    static func address(of n: Int, prand: UInt32) -> BluetoothDeviceIdentifier {
        ResolvablePrivateAddress(prand: prand, key: NettleAES128().encryptor(key: irk(n).value)).device
    }

    func resolver(bonds: Int, capacity: Int = 64) -> (IdentityResolver, Count) {
        let count = Count()
        var resolver = IdentityResolver(cipher: CountingCipher(count: count), capacity: capacity)
        for n in 0..<bonds { resolver.add(irk: Self.irk(n), identity: Self.identity(n)) }
        return (resolver, count)
    }

    @Test func theSpecificationsSampleAddressResolvesToItsIdentity() {
        var resolver = IdentityResolver(cipher: NettleAES128())
        let identity = BluetoothDeviceIdentifier(address: HardwareAddress("00:1B:DC:07:32:EF")!, addressType: .public)
        resolver.add(irk: SecurityKey(hex: "ec0234a357c8ad05341010a60a397d9b")!, identity: identity)
        let sample = BluetoothDeviceIdentifier(address: HardwareAddress("70:81:94:0D:FB:AA")!, addressType: .random)
        #expect(resolver.identity(of: sample) == identity)
        #expect(resolver.identity(of: BluetoothDeviceIdentifier(address: HardwareAddress("70:81:94:0D:FB:AB")!, addressType: .random)) == nil)
    }

    @Test func aKnownAddressCostsNoEncryption() {
        var (resolver, count) = resolver(bonds: 10)
        let address = Self.address(of: 7, prand: 0x12_3456)
        var found: BluetoothDeviceIdentifier?
        let first = cost(count) { found = resolver.identity(of: address) }
        #expect(found == Self.identity(7))
        #expect(first >= 1 && first <= 10)
        for _ in 0..<5 {
            #expect(cost(count) { found = resolver.identity(of: address) } == 0)
            #expect(found == Self.identity(7))
        }
    }

    @Test func aStrangerCostsOnePassOverTheKeysThenNothing() {
        var (resolver, count) = resolver(bonds: 10)
        let stranger = Self.address(of: 99, prand: 0x2A_2A2A)
        var found: BluetoothDeviceIdentifier?
        #expect(cost(count) { found = resolver.identity(of: stranger) } == 10)
        #expect(found == nil)
        #expect(cost(count) { found = resolver.identity(of: stranger) } == 0)
        #expect(found == nil)
    }

    @Test func addressesThatAreNotResolvableCostNothingAndAreNotRemembered() {
        var (resolver, count) = resolver(bonds: 10)
        for text in ["70:81:94:0D:FB:AA/public", "C1:02:03:04:05:06/random", "31:02:03:04:05:06/random"] {
            let parts = text.split(separator: "/")
            let type: BluetoothAddressType = parts[1] == "public" ? .public : .random
            let device = BluetoothDeviceIdentifier(address: HardwareAddress(parts[0])!, addressType: type)
            let answer = resolve(&resolver, count, device)
            #expect(answer.identity == nil && answer.blocks == 0)
        }
        #expect(resolver.rememberedCount == 0)
    }

    @Test func theMemoryIsBoundedAndKeepsWhatIsInUse() {
        var (resolver, count) = resolver(bonds: 10, capacity: 16)
        let bonded = Self.address(of: 3, prand: 0x01_0203)
        _ = resolver.identity(of: bonded)
        let firstStranger = Self.address(of: 50, prand: 0)
        for n in 0..<200 {
            #expect(cost(count) { _ = resolver.identity(of: Self.address(of: 50, prand: UInt32(n))) } == 10)
            #expect(resolver.rememberedCount <= 16)
            // The accessory keeps advertising among the crowd: its address stays known.
            let answer = resolve(&resolver, count, bonded)
            #expect(answer.identity == Self.identity(3) && answer.blocks == 0)
        }
        // A stranger long gone was dropped: it costs its pass again, once.
        #expect(cost(count) { _ = resolver.identity(of: firstStranger) } == 10)
        #expect(cost(count) { _ = resolver.identity(of: firstStranger) } == 0)
    }

    @Test func anAddedKeyLetsAStrangerResolve() {
        var (resolver, count) = resolver(bonds: 10)
        let newcomer = Self.address(of: 10, prand: 0x0B_0B0B)
        let stranger = Self.address(of: 77, prand: 0x0C_0C0C)
        #expect(resolver.identity(of: newcomer) == nil)
        _ = resolver.identity(of: stranger)
        resolver.add(irk: Self.irk(10), identity: Self.identity(10))
        #expect(resolver.identity(of: newcomer) == Self.identity(10))
        #expect(cost(count) { _ = resolver.identity(of: newcomer) } == 0)
        // Strangers were forgotten all together: the other one costs its pass again, now over 11 keys.
        let answer = resolve(&resolver, count, stranger)
        #expect(answer.identity == nil && answer.blocks == 11)
    }

    @Test func aRemovedKeysAddressesStopResolvingAndTheOthersStayKnown() {
        var (resolver, count) = resolver(bonds: 10)
        let removed = Self.address(of: 4, prand: 0x04_0404)
        let kept = Self.address(of: 5, prand: 0x05_0505)
        #expect(resolver.identity(of: removed) == Self.identity(4))
        #expect(resolver.identity(of: kept) == Self.identity(5))
        resolver.remove(identity: Self.identity(4))
        #expect(resolver.identity(of: removed) == nil)
        #expect(!resolver.identities.contains(Self.identity(4)))
        let answer = resolve(&resolver, count, kept)
        #expect(answer.identity == Self.identity(5) && answer.blocks == 0)
    }

    @Test func aReplacedKeyForgetsTheAddressesOfTheOldOne() {
        var (resolver, _) = resolver(bonds: 3)
        let old = Self.address(of: 1, prand: 0x01_0101)
        #expect(resolver.identity(of: old) == Self.identity(1))
        resolver.add(irk: Self.irk(42), identity: Self.identity(1))
        #expect(resolver.identity(of: old) == nil)
        #expect(resolver.identity(of: Self.address(of: 42, prand: 0x01_0101)) == Self.identity(1))
        #expect(resolver.identities.count == 3)
    }
}
