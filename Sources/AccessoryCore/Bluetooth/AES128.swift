/// One 128-bit AES block or key, most significant octet first: the order in
/// which the Core Specification writes its values and in which its security
/// function `e` hands them to AES (Vol 3 Part H §2.2.1: the most significant
/// octet is `key[0]`, `in[0]`). HCI and SMP carry the same values least
/// significant octet first.
public struct AES128Block: Hashable, Sendable {
    /// Octets 0–7 (the most significant half).
    public var high: UInt64
    /// Octets 8–15.
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// From 16 octets, most significant first.
    public init?(octets: some Collection<UInt8>) {
        guard octets.count == 16 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for (index, octet) in octets.enumerated() {
            if index < 8 { high = high << 8 | UInt64(octet) } else { low = low << 8 | UInt64(octet) }
        }
        self.init(high: high, low: low)
    }

    /// From 16 octets least significant first, as SMP and the management interface carry a key.
    public init?(littleEndianOctets octets: some Collection<UInt8>) {
        self.init(octets: Array(octets.reversed()))
    }

    /// Octets, most significant first.
    public var octets: [UInt8] {
        (0..<16).map { index in
            let half = index < 8 ? high : low
            return UInt8(truncatingIfNeeded: half >> UInt64(56 - 8 * (index % 8)))
        }
    }
}

/// AES-128 encryption under one key, already expanded: the one primitive the
/// resolution of private addresses needs. Injected, so that Core stays free
/// of C and its users can count or replace the real cipher.
public protocol AES128Encryptor: Sendable {
    func encrypt(_ block: AES128Block) -> AES128Block
}

/// Makes an encryptor for a key; the key schedule is computed once here, not per block.
public protocol AES128Cipher: Sendable {
    func encryptor(key: AES128Block) -> any AES128Encryptor
}
