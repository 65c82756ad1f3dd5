import AccessoryPlatform
import AccessorySetup

/// One line per accessory: what an app would log about it.
func describe(_ accessory: Accessory) -> String {
    var line = "accessory \(accessory.id) \"\(accessory.displayName)\" \(accessory.state)"
    if let bluetooth = accessory.bluetoothIdentifier { line += " bluetooth=\(bluetooth)" }
    if let ssid = accessory.ssid { line += " ssid=\"\(ssid)\"" }
    if let present = accessory.isPresent { line += " present=\(present ? "yes" : "no")" }
    if let rssi = accessory.rssi { line += " rssi=\(rssi)" }
    return line
}

/// A line on stdout, unbuffered, so whoever reads through a pipe (a test, the
/// lab) sees each event when it happens.
func say(_ line: String) { StandardOutput.write(line + "\n") }

func printError(_ text: String) { StandardError.write("accessory-example: \(text)\n") }

/// Text from outside (a wake note) without control characters, for a log line.
func printable(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
}
