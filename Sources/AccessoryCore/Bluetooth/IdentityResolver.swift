/// Who is behind a resolvable private address: the bonded accessories' IRKs
/// with their identity addresses, and a bounded memory of the answers.
///
/// A bonded accessory changes its address about every 15 minutes and every
/// advertising report carries one, so an answer is computed once per new
/// address and remembered: a known address costs a dictionary lookup and no
/// AES; a stranger's costs at most one block encryption per IRK, once, and is
/// then remembered as a stranger. The memory (`GenerationalMemory`) keeps at
/// most `capacity` addresses, dropping the least recently used half at a time;
/// a forgotten address costs its pass again, nothing worse.
///
/// Adding an IRK forgets every stranger (one of them may be the new bond);
/// removing one forgets every address that resolved to it, so a removed
/// bond's addresses stop resolving at once. Addresses resolved to other bonds
/// stay: an address is made from one IRK.
public struct IdentityResolver: Sendable {
    private enum Answer: Sendable {
        case identity(BluetoothDeviceIdentifier)
        case stranger
    }

    private struct Bond: Sendable {
        let identity: BluetoothDeviceIdentifier
        let irk: SecurityKey
        let encryptor: any AES128Encryptor
    }

    private let cipher: any AES128Cipher
    private var bonds: [Bond] = []
    private var memory: GenerationalMemory<BluetoothAddress, Answer>

    /// As many addresses as the registry keeps devices by default.
    public static let defaultCapacity = 4_096

    public init(cipher: any AES128Cipher, capacity: Int = IdentityResolver.defaultCapacity) {
        self.cipher = cipher
        memory = GenerationalMemory(capacity: capacity)
    }

    /// The identities whose IRK is known.
    public var identities: [BluetoothDeviceIdentifier] { bonds.map(\.identity) }

    /// Addresses remembered, resolved or strangers: never more than the capacity.
    public var rememberedCount: Int { memory.count }

    /// Adds a bond's IRK, or replaces the IRK of an identity already known
    /// (the addresses made from the old one are forgotten as a removal's are).
    public mutating func add(irk: SecurityKey, identity: BluetoothDeviceIdentifier) {
        if let existing = bonds.first(where: { $0.identity == identity }) {
            guard existing.irk != irk else { return }
            remove(identity: identity)
        }
        bonds.append(Bond(identity: identity, irk: irk, encryptor: cipher.encryptor(key: irk.value)))
        memory.forget { if case .stranger = $0 { true } else { false } }
    }

    public mutating func remove(identity: BluetoothDeviceIdentifier) {
        guard bonds.contains(where: { $0.identity == identity }) else { return }
        bonds.removeAll { $0.identity == identity }
        memory.forget { if case .identity(let resolved) = $0 { resolved == identity } else { false } }
    }

    /// The identity behind `device` when its address is resolvable and made
    /// from a known IRK; nil for a stranger and for any other kind of address
    /// (which is its own identity, and is neither resolved nor remembered).
    public mutating func identity(of device: BluetoothDeviceIdentifier) -> BluetoothDeviceIdentifier? {
        guard let address = ResolvablePrivateAddress(device) else { return nil }
        if let answer = memory.value(for: address.address) {
            if case .identity(let identity) = answer { return identity }
            return nil
        }
        let found = bonds.first { address.isMade(by: $0.encryptor) }?.identity
        memory.remember(found.map(Answer.identity) ?? .stranger, for: address.address)
        return found
    }
}
