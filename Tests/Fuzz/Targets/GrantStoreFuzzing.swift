@testable import AccessoryCodecs
import AccessoryCore

/// The grant store file in /var/lib/accessoryd. Most damaged files stop at
/// the checksum, so the input is also read with a valid checksum appended,
/// which lets the fuzzer reach the grants; what decodes encodes to a file
/// that decodes to the same grants.
let grantStoreTarget = FuzzTarget(name: "grant-store") { bytes in
    _ = try? GrantStoreCodec.decode(bytes)
    var body = bytes
    if body.last != UInt8(ascii: "\n") { body.append(UInt8(ascii: "\n")) }
    let sealed = body + Array("[Checksum]\nFNV-1a-64=\(GrantStoreCodec.checksum(body))\n".utf8)
    guard let grants = try? GrantStoreCodec.decode(sealed) else { return }
    let again = try? GrantStoreCodec.decode(GrantStoreCodec.encode(grants))
    expect(again.map { $0.count == grants.count && Set($0) == Set(grants) } == true,
           "grants do not survive being written and read back")
}
