import AccessoryCore

extension MonitorLine {
    /// `bluetooth hci0 00:AA:01:01:00:01/public rssi=-40 connectable=yes scannable=no name="Lab Sensor" …`
    ///
    /// Fixed order; the controller, the device and `rssi`, `connectable`,
    /// `scannable` always, every other key only when heard. Hex is lowercase,
    /// UUIDs in their canonical form, lists comma separated and sorted where
    /// the air gives no order (service and manufacturer data).
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
        if !data.manufacturerData.isEmpty {
            fields.append("manufacturer=" + data.manufacturerData.sorted { $0.key < $1.key }
                .map { "\(hex16($0.key)):\(hexString($0.value))" }.joined(separator: ","))
        }
        if let appearance = data.appearance { fields.append("appearance=0x" + hex16(appearance)) }
        if let flags = data.flags { fields.append("flags=0x" + hexByte(flags)) }
        return fields.joined(separator: " ")
    }

    /// A name from the air in double quotes: printable ASCII as is, `"` and
    /// `\` escaped, anything else (controls, invalid or non-ASCII UTF-8) as
    /// `\xNN` per byte, so a line is always one line of ASCII.
    static func quoted(_ bytes: [UInt8]) -> String {
        var text = "\""
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
        return text + "\""
    }

    private static func hex16(_ value: UInt16) -> String {
        hexByte(UInt8(truncatingIfNeeded: value >> 8)) + hexByte(UInt8(truncatingIfNeeded: value))
    }
}
