/// Each byte's two hex digits as one `UInt16` that, stored, puts the first
/// digit at the lower address: a byte's digits are one load and one store.
/// The tables live in memory their owner holds and frees (`deallocate`), so
/// a writer reads them with a load through `self`: a static table cost a
/// `swift_once` and a bounds check on every use (callgrind, issue 25).
struct HexDigitPairs {
    let lowercase: UnsafeMutablePointer<UInt16>
    let uppercase: UnsafeMutablePointer<UInt16>

    init() {
        lowercase = .allocate(capacity: 256)
        uppercase = .allocate(capacity: 256)
        // Each table filled with its case fixed: see `hexByte` for a compiler
        // that swapped digit tables chosen by a condition.
        for byte in 0...255 {
            lowercase[byte] = Self.pair(UInt8(byte), letterA: UInt8(ascii: "a"))
        }
        for byte in 0...255 {
            uppercase[byte] = Self.pair(UInt8(byte), letterA: UInt8(ascii: "A"))
        }
    }

    func deallocate() {
        lowercase.deallocate()
        uppercase.deallocate()
    }

    private static func pair(_ byte: UInt8, letterA: UInt8) -> UInt16 {
        func digit(_ nibble: UInt8) -> UInt16 { UInt16(nibble < 10 ? UInt8(ascii: "0") + nibble : letterA + (nibble - 10)) }
        return (digit(byte >> 4) | digit(byte & 0x0F) << 8).littleEndian
    }
}
