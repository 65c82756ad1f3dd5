/// How an `i rssi` travels on accessoryd's bus API: dBm, or 127 when the
/// strength is not known. 127 is what HCI itself reports for "RSSI not
/// available" (Core Spec Vol 4 Part E §7.7.65.2), and unlike 0 it can never be
/// a real reading, so a client can tell "unknown" from a very strong signal.
public enum BusRSSI {
    public static let unknown: Int32 = 127

    /// The value to send for `rssi`, nil meaning not known.
    public static func encode(_ rssi: Int?) -> Int32 {
        guard let rssi else { return unknown }
        // Readings are within -127…+20 dBm; a clamped 127 would read as unknown.
        return Int32(clamping: min(rssi, Int(unknown) - 1))
    }

    /// The reading a received value stands for, nil when not known.
    public static func decode(_ value: Int32) -> Int? { value == unknown ? nil : Int(value) }
}
