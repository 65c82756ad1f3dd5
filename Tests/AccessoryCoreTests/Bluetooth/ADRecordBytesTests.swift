import Testing
@testable import AccessoryCore

/// `ADRecordBytes` keeps `[UInt8]`'s value semantics: a copy is not changed by writes to the original.
@Suite struct ADRecordBytesTests {
    private func bytes(_ values: [UInt8]) -> ADRecordBytes {
        var result = ADRecordBytes()
        values.withUnsafeBytes { result.append(contentsOf: $0) }
        return result
    }

    private func array(_ value: ADRecordBytes) -> [UInt8] { value.withUnsafeBytes { Array($0) } }

    @Test func resizeGrowsAndShrinksARangeMovingWhatFollows() {
        var value = bytes([1, 2, 3, 4, 5])
        value.resize(1..<2, to: 3)
        value.withUnsafeMutableBytes { $0[1] = 9; $0[2] = 9; $0[3] = 9 }
        #expect(array(value) == [1, 9, 9, 9, 3, 4, 5])
        value.resize(1..<4, to: 0)
        #expect(array(value) == [1, 3, 4, 5])
        value.resize(4..<4, to: 40)
        #expect(value.count == 44)
        #expect(array(value).prefix(4) == [1, 3, 4, 5])
    }

    @Test func aCopyKeepsItsBytesWhenTheOriginalIsWritten() {
        var original = bytes([1, 2, 3])
        let copy = original
        original.withUnsafeMutableBytes { $0[0] = 7 }
        original.resize(3..<3, to: 2)
        #expect(array(copy) == [1, 2, 3])
        #expect(array(original).prefix(3) == [7, 2, 3])
        var cleared = copy
        cleared.removeAll()
        #expect(cleared.isEmpty)
        #expect(array(copy) == [1, 2, 3])
    }

    @Test func equalBytesAreEqualAndHashAlike() {
        var grown = bytes([1, 2])
        grown.reserveCapacity(100)
        #expect(grown == bytes([1, 2]))
        #expect(grown.hashValue == bytes([1, 2]).hashValue)
        #expect(grown != bytes([1, 2, 0]))
        #expect(ADRecordBytes() == bytes([]))
    }
}
