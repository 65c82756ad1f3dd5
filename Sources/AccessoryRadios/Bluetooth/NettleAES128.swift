import AccessoryCore
import CNettle

/// AES-128 from Nettle (libnettle8t64), for resolving private addresses. (Its
/// header renames `aes128_encrypt` to `nettle_aes128_encrypt` by a macro Swift
/// does not see, hence the prefixed names.)
///
/// Why Nettle: it is already installed on every board, as apt needs it
/// (trixie's sqv verifies apt's signatures with it; bookworm's GnuTLS is
/// built on it), so accessoryd adds a 350 kB library no board lacks. It has
/// no global state and no initialisation (`aes128_set_encrypt_key`, then
/// `aes128_encrypt` on a caller's context), and it is GnuTLS's crypto layer,
/// maintained upstream and by Debian's security team. libgcrypt is not
/// installed on trixie (libsystemd0 257 no longer links it, it loads it on
/// demand) and needs global initialisation; OpenSSL's libcrypto (6.5 MB) is
/// installed but much heavier to map for one cipher; the kernel's AF_ALG
/// would cost a syscall per block and a wider RestrictAddressFamilies.
public struct NettleAES128: AES128Cipher {
    public init() {}

    public func encryptor(key: AES128Block) -> any AES128Encryptor { NettleAES128Encryptor(key: key) }
}

/// One expanded key. The context is written once, here, and only read after,
/// so sharing it between threads is safe.
final class NettleAES128Encryptor: AES128Encryptor, @unchecked Sendable {
    private let context: UnsafeMutablePointer<aes128_ctx>

    init(key: AES128Block) {
        context = .allocate(capacity: 1)
        var octets = (key.high.bigEndian, key.low.bigEndian)
        withUnsafeBytes(of: &octets) { nettle_aes128_set_encrypt_key(context, $0.bindMemory(to: UInt8.self).baseAddress) }
    }

    deinit { context.deallocate() }

    func encrypt(_ block: AES128Block) -> AES128Block {
        // The two halves, most significant octet first, are the block's 16 octets in order.
        var octets = (block.high.bigEndian, block.low.bigEndian)
        withUnsafeMutableBytes(of: &octets) {
            let bytes = $0.bindMemory(to: UInt8.self).baseAddress
            nettle_aes128_encrypt(context, 16, bytes, bytes)
        }
        return AES128Block(high: UInt64(bigEndian: octets.0), low: UInt64(bigEndian: octets.1))
    }
}
