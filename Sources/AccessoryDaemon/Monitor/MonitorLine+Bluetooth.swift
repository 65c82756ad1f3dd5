import AccessoryCore

extension MonitorLine {
    /// `bluetooth hci0 00:AA:01:01:00:01/public rssi=-40 connectable=yes scannable=no name="Lab Sensor" …`
    ///
    /// Fixed order; the controller, the device and `rssi`, `connectable`,
    /// `scannable` always, every other key only when heard. Hex is lowercase,
    /// UUIDs in their canonical form, lists comma separated and sorted where
    /// the air gives no order (service and manufacturer data; a company's
    /// several values in the order heard, each as its own `company:hex`).
    static func bluetooth(_ advertisement: Advertisement) -> String {
        let data = advertisement.data
        var fields = [
            "bluetooth",
            advertisement.controllerIndex.map { "hci\($0)" } ?? "replay",
            advertisement.device.description,
            "rssi=" + (advertisement.rssi.map(String.init) ?? "none"),
        ]
        if let txPower = advertisement.txPower ?? data.txPowerLevel { fields.append("tx_power=\(txPower)") }
        fields.append("connectable=" + (advertisement.isConnectable ? "yes" : "no"))
        fields.append("scannable=" + (advertisement.isScannable ? "yes" : "no"))
        if let name = data.localNameBytes {
            let kind = data.completeLocalName == nil ? "short_name" : "name"
            fields.append("\(kind)=" + quoted(name))
        }
        if !data.serviceUUIDs.isEmpty {
            fields.append("uuids=" + data.serviceUUIDs.map(\.description).joined(separator: ","))
        }
        if !data.serviceData.isEmpty {
            fields.append("service_data=" + data.serviceData.sorted { $0.key < $1.key }
                .map { "\($0.key):\(hexString($0.value))" }.joined(separator: ","))
        }
        if !data.manufacturerDataValues.isEmpty {
            fields.append("manufacturer=" + data.manufacturerDataValues.sorted { $0.key < $1.key }
                .flatMap { company, values in values.map { "\(hex16(company)):\(hexString($0))" } }
                .joined(separator: ","))
        }
        if let appearance = data.appearance { fields.append("appearance=0x" + hex16(appearance)) }
        if let flags = data.flags { fields.append("flags=0x" + hexByte(flags)) }
        return fields.joined(separator: " ")
    }

    /// A name from the air in double quotes, always on one line. Valid UTF-8
    /// is shown as text, with `"` and `\` escaped and control, format and
    /// line-separator characters (C0, DEL, C1, e.g. U+200E, U+2028) as `\xNN`
    /// per UTF-8 byte; invalid UTF-8 keeps printable ASCII and shows every
    /// other byte as `\xNN`.
    static func quoted(_ bytes: [UInt8]) -> String {
        var text = "\""
        if let name = String(validating: bytes, as: UTF8.self) {
            for scalar in name.unicodeScalars {
                if scalar == "\"" || scalar == "\\" {
                    text += "\\" + String(scalar)
                } else if isEscaped(scalar) {
                    for byte in String(scalar).utf8 { text += "\\x" + hexByte(byte) }
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        } else {
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    text += "\\" + String(UnicodeScalar(byte))
                case 0x20...0x7E:
                    text.append(Character(UnicodeScalar(byte)))
                default:
                    text += "\\x" + hexByte(byte)
                }
            }
        }
        return text + "\""
    }

    /// Characters that would break the line or hide what is there.
    private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate, .privateUse: true
        default: false
        }
    }

    private static func hex16(_ value: UInt16) -> String {
        hexByte(UInt8(truncatingIfNeeded: value >> 8)) + hexByte(UInt8(truncatingIfNeeded: value))
    }
}
