import AccessoryCore

extension MonitorLine {
    /// `bluetooth hci0 AA:BB:CC:DD:EE:FF/random rssi=-40 …` (the Bluetooth work fills in the fields).
    static func bluetooth(_ advertisement: Advertisement) -> String {
        let controller = advertisement.controllerIndex.map { "hci\($0)" } ?? "replay"
        return "bluetooth \(controller) \(advertisement.device)"
    }
}
