import AccessorySetup
import Glibc

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
func say(_ line: String) { writeLine(line, to: 1) }

func printError(_ text: String) { writeLine("accessory-example: \(text)", to: 2) }

private func writeLine(_ line: String, to fd: Int32) {
    let bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
    }
}
