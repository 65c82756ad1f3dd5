/// Durations in configuration files, written as systemd writes time spans:
/// a number and a unit (`ms`, `s`/`sec`, `m`/`min`, `h`), seconds when the
/// unit is left out: `90`, `45s`, `1500ms`, `2min`, `1.5`.
public enum TimeSpan {
    /// Nil for anything else, for negative, not finite, or over a day.
    public static func parse(_ text: String) -> Duration? {
        let trimmed = text.trimmingASCIIWhitespace()
        let units: [(suffix: String, milliseconds: Double)] = [
            ("ms", 1), ("sec", 1000), ("s", 1000), ("min", 60_000), ("m", 60_000), ("h", 3_600_000), ("", 1000),
        ]
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            let number = trimmed.dropLast(unit.suffix.count).trimmingASCIIWhitespace()
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                let value = Double(number)
            else { continue }
            let milliseconds = value * unit.milliseconds
            guard milliseconds.isFinite, milliseconds <= 86_400_000 else { return nil }
            return .milliseconds(Int64(milliseconds + 0.5))
        }
        return nil
    }
}
