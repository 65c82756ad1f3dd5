import AccessoryCore

/// bluetoothd's object paths for adapters and devices (doc/org.bluez.Adapter.rst,
/// doc/org.bluez.Device.rst: `/org/bluez/hciN` and `/org/bluez/hciN/dev_XX_XX_XX_XX_XX_XX`).
/// Paths that come from the bus are read only through `device(_:)`, which
/// takes nothing but that exact form.
enum BluezObjectPath {
    static let root = "/org/bluez"

    static func adapter(_ controller: UInt16) -> String { "\(root)/hci\(controller)" }

    /// The Device1 path bluetoothd gives `address` on `controller` (the path
    /// keeps the address the device was first seen with, even after its
    /// identity is learned).
    static func device(_ address: BluetoothAddress, on controller: UInt16) -> String {
        adapter(controller) + "/dev_" + address.octets.map { hexByte($0, uppercase: true) }.joined(separator: "_")
    }

    /// The controller and address of a Device1 path; nil for anything that is
    /// not exactly `/org/bluez/hciN/dev_` and six upper-case hex pairs.
    static func device(_ path: String) -> (controller: UInt16, address: BluetoothAddress)? {
        let prefix = root + "/hci"
        guard path.hasPrefix(prefix), path.utf8.count <= 64 else { return nil }
        let rest = path.dropFirst(prefix.count)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let index = rest[..<slash]
        guard !index.isEmpty, index.count <= 5, index.allSatisfy(\.isASCIIDigit), index.first != "0" || index.count == 1,
              let controller = UInt16(index) else { return nil }
        let leaf = rest[rest.index(after: slash)...]
        guard leaf.hasPrefix("dev_") else { return nil }
        let pairs = leaf.dropFirst(4).split(separator: "_", omittingEmptySubsequences: false)
        guard pairs.count == 6,
              pairs.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCIIDigit || ("A"..."F").contains($0) } }),
              let address = BluetoothAddress(pairs.joined(separator: ":")) else { return nil }
        return (controller, address)
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
