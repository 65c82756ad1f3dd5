import AccessoryCodecs
import AccessoryCore

/// The daemon's own files in /var/lib/accessoryd, read back: as given, and
/// (like the fuzz targets) with a valid checksum appended so that damaged
/// seeds reach the records; what decodes is written and read again.
let storeDecodeTargets: [DecodeTarget] = [
    DecodeTarget(name: "grant-store") { bytes in
        let sealed = Result { try GrantStoreCodec.decode(sealedWithChecksum(bytes)) }
        return parts([
            "raw": outcome { try GrantStoreCodec.decode(bytes) },
            "sealed": outcome { try sealed.get() },
            "again": outcome { try GrantStoreCodec.decode(GrantStoreCodec.encode(try sealed.get())) },
        ])
    },
    DecodeTarget(name: "bond-store") { bytes in
        let sealed = Result { try BondStoreCodec.decode(sealedWithChecksum(bytes)) }
        return parts([
            "raw": outcome { try BondStoreCodec.decode(bytes) },
            "sealed": outcome { try sealed.get() },
            "again": outcome { try BondStoreCodec.decode(BondStoreCodec.encode(try sealed.get())) },
            // Keys print as `<128-bit key>`: whether they survive is said, not shown.
            "keys-survive": outcome {
                let bonds = try sealed.get()
                return try BondStoreCodec.decode(BondStoreCodec.encode(bonds)) == bonds.sorted { $0.accessory < $1.accessory }
            },
        ])
    },
]

/// The body, ending in a newline, and the `[Checksum]` section the stores
/// end with: FNV-1a 64 over the body, 16 lowercase hex digits.
private func sealedWithChecksum(_ bytes: [UInt8]) -> [UInt8] {
    var body = bytes
    if body.last != UInt8(ascii: "\n") { body.append(UInt8(ascii: "\n")) }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in body { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    let hex = String(hash, radix: 16)
    return body + Array("[Checksum]\nFNV-1a-64=\(String(repeating: "0", count: 16 - hex.count) + hex)\n".utf8)
}
