/// The datalink types of a btsnoop file this codec reads and writes.
public enum BtsnoopDatalink: UInt32, Hashable, Sendable {
    /// Packets with their H4 indicator; the record flags give the direction.
    case hciUART = 1002
    /// Linux monitor format, as `btmon -w` writes it: the record flags carry the
    /// controller index (high 16 bits) and the monitor opcode (low 16 bits).
    case linuxMonitor = 2001
}
