/// One packet of a btsnoop capture, the same for both datalinks.
public struct BtsnoopRecord: Hashable, Sendable {
    /// Microseconds since 0000-01-01 00:00 UTC, as btsnoop stores time.
    public var timestamp: Int64
    /// The HCI index (`hci0` is 0); nil for records about no controller.
    public var controllerIndex: UInt16?
    public var opcode: HCIMonitorOpcode
    /// The packet as captured, without any H4 indicator.
    public var packet: [UInt8]
    /// The packet's length before any truncation by the capturing tool.
    public var originalLength: Int
    /// Packets the capturing tool lost before this one.
    public var cumulativeDrops: UInt32

    public init(
        timestamp: Int64,
        controllerIndex: UInt16?,
        opcode: HCIMonitorOpcode,
        packet: [UInt8],
        originalLength: Int? = nil,
        cumulativeDrops: UInt32 = 0
    ) {
        self.timestamp = timestamp
        self.controllerIndex = controllerIndex
        self.opcode = opcode
        self.packet = packet
        self.originalLength = originalLength ?? packet.count
        self.cumulativeDrops = cumulativeDrops
    }

    /// The capture holds fewer octets than the packet had.
    public var isTruncated: Bool { packet.count < originalLength }

    /// Microseconds between 0000-01-01 and the Unix epoch, 1970-01-01.
    public static let unixEpochOffset: Int64 = 0x00DC_DDB3_0F2F_8000

    /// Microseconds since the Unix epoch.
    public var unixTimeMicroseconds: Int64 { timestamp &- Self.unixEpochOffset }

    /// The monitor format's "no controller" index.
    static let noControllerIndex: UInt16 = 0xFFFF
}
