@testable import AccessoryCodecs
import AccessoryCore

/// The bond store file in /var/lib/accessoryd, which holds the keys of paired
/// accessories. As for the grant store, the input is also read with a valid
/// checksum appended, so the fuzzer reaches the records behind it; what
/// decodes encodes to a file that decodes to the same bonds, and no refusal
/// quotes the input (it could hold a key).
let bondStoreTarget = FuzzTarget(name: "bond-store") { bytes in
    _ = try? BondStoreCodec.decode(bytes)
    var body = bytes
    if body.last != UInt8(ascii: "\n") { body.append(UInt8(ascii: "\n")) }
    let sealed = body + Array("[Checksum]\nFNV-1a-64=\(GrantStoreCodec.checksum(body))\n".utf8)
    let bonds: [Bond]
    do throws(BondStoreError) {
        bonds = try BondStoreCodec.decode(sealed)
    } catch {
        if case .syntax = error { return }
        // Every other refusal names a field or a section; none may carry 32 hex digits.
        expect(!containsKeyLikeRun(error.description), "a refusal quotes what may be a key: \(error)")
        return
    }
    let again = try? BondStoreCodec.decode(BondStoreCodec.encode(bonds))
    expect(again == bonds.sorted { $0.accessory < $1.accessory }, "bonds do not survive being written and read back")
}

/// 32 hex digits in a row: the form every key takes in the file.
private func containsKeyLikeRun(_ text: String) -> Bool {
    var run = 0
    for byte in text.utf8 {
        let hex = (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
        run = hex ? run + 1 : 0
        if run >= 32 { return true }
    }
    return false
}
