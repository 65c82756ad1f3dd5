import AccessoryCore

extension MonitorLine {
    /// `wifi 02:00:00:00:00:00 …` (the Wi-Fi work fills in the fields).
    static func wifi(_ network: WiFiNetwork) -> String {
        "wifi \(network.bssid.description.lowercased())"
    }
}
