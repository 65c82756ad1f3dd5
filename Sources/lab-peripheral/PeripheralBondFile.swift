import AccessoryCore
import AccessoryPlatform
import AccessoryRadios
import Glibc

/// `serve --accept-pairing --bond-file PATH`: the accessory's side of its
/// bonds, kept across restarts and reboots as a real accessory keeps them in
/// flash. Without bluetoothd the kernel forgets a controller's keys when the
/// controller goes; this keeps each New Long Term Key event of the accessory's
/// controller and loads them back at start (Load Long Term Keys, which
/// replaces that controller's list: lab-peripheral alone manages it).
///
/// The file holds one key per line: the 36 octets of a Load Long Term Keys
/// entry in hex (address, address type, key type, initiator, size, EDIV,
/// Rand, value), which is exactly what the event carries after its store hint.
struct PeripheralBondFile {
    static let newLongTermKey: UInt16 = 0x000A
    static let loadLongTermKeys: UInt16 = 0x0013
    static let entrySize = 36

    let path: String
    let controller: UInt16

    /// The entries in the file; a line that is not one is left out.
    func entries() -> [[UInt8]] {
        guard let bytes = try? FileSystem.readFileIfPresent(path, limit: 64 * 1024) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
            let octets = AccessoryCore.bytes(fromHex: line)
            return octets?.count == Self.entrySize ? octets : nil
        }
    }

    /// Load Long Term Keys with the file's entries, for the controller.
    func loadCommand() -> [UInt8] {
        let keys = entries()
        let parameters = [UInt8(keys.count & 0xFF), UInt8(keys.count >> 8)] + keys.flatMap { $0 }
        return ManagementPacket.command(Self.loadLongTermKeys, controller: controller, parameters: parameters)
    }

    /// Keeps a New Long Term Key event of the controller that asks to be
    /// stored; a later key for the same address and role replaces the earlier.
    /// Returns whether it kept one.
    func keep(_ packet: [UInt8]) -> Bool {
        guard packet.count == 6 + 1 + Self.entrySize,
              UInt16(packet[0]) | UInt16(packet[1]) << 8 == Self.newLongTermKey,
              UInt16(packet[2]) | UInt16(packet[3]) << 8 == controller,
              packet[6] == 1 else { return false }
        let entry = Array(packet[7...])
        // Address (6), its type (1), key type (1), initiator (1): one key per address and role.
        let sameKey = { (other: [UInt8]) in other[0..<9] == entry[0..<9] }
        let kept = entries().filter { !sameKey($0) } + [entry]
        let text = kept.map { hexString($0) }.joined(separator: "\n") + "\n"
        // Written whole and renamed: a reboot mid-write leaves the old file, not half a key.
        let temporary = path + ".new"
        guard let file = fopen(temporary, "w") else { return false }
        let written = fputs(text, file) >= 0 && fflush(file) == 0 && fsync(fileno(file)) == 0
        fclose(file)
        return written && rename(temporary, path) == 0
    }
}
