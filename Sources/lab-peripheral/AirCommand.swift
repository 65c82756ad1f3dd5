/// What a check may ask of the sensor's advertising over `serve --control`:
/// leave the air, come back, or come back as a beacon.
///
/// btvirt's emulated controller reports an advertiser to a scanner only
/// when its advertising is (re)enabled (emulator/btdev.c), so a scanner
/// hears a steadily advertising sensor once. As a beacon the sensor
/// re-enables its advertising every `milliseconds`, and is heard that often,
/// as a real sensor is at each advertising interval: presence then learns
/// a short interval and tells its absence within seconds.
enum AirCommand: Equatable, CustomStringConvertible {
    case off
    case on
    case beacon(milliseconds: Int32)

    /// One command: `off`, `on` or `beacon MS` (100...10000); nil for anything else.
    init?(text: String) {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        switch (words.first, words.count) {
        case ("off", 1): self = .off
        case ("on", 1): self = .on
        case ("beacon", 2):
            guard let milliseconds = Int32(words[1]), (100...10_000).contains(milliseconds) else { return nil }
            self = .beacon(milliseconds: milliseconds)
        default: return nil
        }
    }

    var advertising: Bool { self != .off }

    var description: String {
        switch self {
        case .off: "off"
        case .on: "on"
        case .beacon(let milliseconds): "on as a beacon, re-enabled every \(milliseconds) ms"
        }
    }
}
