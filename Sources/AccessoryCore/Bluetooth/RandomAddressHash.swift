/// The random address hash function (Core Spec Vol 3 Part H §2.2.2):
/// ah(k, r) = e(k, r') mod 2^24, where r' is r (24 bits) padded with 104 zero
/// bits on the most significant side. With the key most significant first,
/// `mod 2^24` is the last three octets of the encrypted block.
public enum RandomAddressHash {
    public static func ah(_ key: any AES128Encryptor, _ r: UInt32) -> UInt32 {
        let encrypted = key.encrypt(AES128Block(high: 0, low: UInt64(r & 0xFF_FFFF)))
        return UInt32(truncatingIfNeeded: encrypted.low & 0xFF_FFFF)
    }
}
