import AccessoryCore
import AccessoryPlatform
import AccessoryRadios

extension MonitorLine {
    /// `wifi wlan0 02:00:00:00:01:00 ssid=4c6162 freq=2412 channel=1 signal=-30 security=wpa2-psk name="Lab"`
    ///
    /// `ssid=` is the SSID's exact bytes in hex (empty for a hidden network);
    /// `name=` is its display form (`SSID.displayName`: UTF-8 text with `\`
    /// doubled, otherwise `\xNN` escapes) in double quotes, with `"` escaped
    /// as `\"`, and comes last so spaces in it cannot shift another field.
    /// Unknown values print as `?`; the interface prints as `ifindexN` once gone.
    static func wifi(_ network: WiFiNetwork) -> String {
        let interface = network.interfaceIndex.map { networkInterfaceName(index: $0) ?? "ifindex\($0)" } ?? "?"
        let fields = [
            "wifi", interface, network.bssid.description.lowercased(),
            "ssid=\(hexString(network.ssid.bytes))",
            "freq=\(network.frequencyMHz)",
            "channel=\(network.channel.map(String.init) ?? "?")",
            "signal=\(network.signalDBm.map(String.init) ?? "?")",
            "security=\(network.security)",
            "name=\(quoted(network.ssid.displayName))",
        ]
        return fields.joined(separator: " ")
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text { out += character == "\"" ? "\\\"" : String(character) }
        return out + "\""
    }
}
