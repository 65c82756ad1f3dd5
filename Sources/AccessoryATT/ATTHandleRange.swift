/// The starting and ending handle of a discovery request. Kept as sent: a
/// range with start 0 or start > end is well formed as bytes, and the server
/// answers it with Invalid Handle (Core Spec Vol 3 Part F §3.4.3.1).
public struct ATTHandleRange: Hashable, Sendable {
    public var start: UInt16
    public var end: UInt16

    public init(start: UInt16, end: UInt16) {
        self.start = start
        self.end = end
    }

    /// 0x0001...0xFFFF, what a client asks for to discover everything.
    public static let all = ATTHandleRange(start: 0x0001, end: 0xFFFF)

    /// Whether a server may search it.
    public var isValid: Bool { start != 0 && start <= end }

    public func contains(_ handle: UInt16) -> Bool { start <= handle && handle <= end }
}
