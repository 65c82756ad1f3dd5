/// A btsnoop record read where it lies: its fields, and where its packet is
/// in the capture (`BtsnoopReader.bytes`), so a replay can hand the packet on
/// without a copy per record. `BtsnoopReader.record(at:)` makes the record.
public struct BtsnoopRecordLocation: Hashable, Sendable {
    public var timestamp: Int64
    public var controllerIndex: UInt16?
    public var opcode: HCIMonitorOpcode
    /// The packet's octets in the capture, without any H4 indicator.
    public var packet: Range<Int>
    public var originalLength: Int
    public var cumulativeDrops: UInt32
}
