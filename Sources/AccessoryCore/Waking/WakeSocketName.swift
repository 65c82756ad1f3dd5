/// The unit an app names with `WakeSocket=`: a `.socket` unit of its own
/// package. Only the syntax is checked here; that the unit is loaded,
/// listens on a stream socket and starts a service running as the app is
/// checked with systemd when the manifests are loaded (`WakeSocketCheck`).
public struct WakeSocketName: Hashable, Sendable {
    public let unit: String

    /// Nil for anything but `NAME.socket` of unit-name characters. A template
    /// (`name@.socket`) or an instance (`name@x.socket`) is refused: waking
    /// starts the one service the app ships, never an instance picked here.
    public init?(_ text: String) {
        let suffix = ".socket"
        guard text.hasSuffix(suffix), text.utf8.count > suffix.utf8.count, text.utf8.count <= 255 else { return nil }
        let allowed = text.utf8.allSatisfy { b in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b)
                || [UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "\\")].contains(b)
        }
        guard allowed else { return nil }
        unit = text
    }
}
