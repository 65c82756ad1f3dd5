import AccessoryCore

extension MonitorLine {
    /// `bluetooth hci0 00:AA:01:01:00:01/public rssi=-40 connectable=yes scannable=no name="Lab Sensor" …`
    ///
    /// Fixed order; the controller, the device and `rssi`, `connectable`,
    /// `scannable` always, every other key only when heard. Hex is lowercase,
    /// UUIDs in their canonical form, lists comma separated and sorted where
    /// the air gives no order (service and manufacturer data; a company's
    /// several values in the order heard, each as its own `company:hex`).
    /// Written by `MonitorLineEncoder`.
    static func bluetooth(_ advertisement: Advertisement) -> String {
        let encoder = MonitorLineEncoder()
        encoder.append(advertisement)
        return String(decoding: encoder.bytes, as: UTF8.self)
    }

    /// A name from the air in double quotes, always on one line. Valid UTF-8
    /// is shown as text, with `"` and `\` escaped and control, format and
    /// line-separator characters (C0, DEL, C1, e.g. U+200E, U+2028) as `\xNN`
    /// per UTF-8 byte; invalid UTF-8 keeps printable ASCII and shows every
    /// other byte as `\xNN`.
    static func quoted(_ bytes: [UInt8]) -> String {
        let encoder = MonitorLineEncoder()
        encoder.appendQuoted(bytes)
        return String(decoding: encoder.bytes, as: UTF8.self)
    }
}
