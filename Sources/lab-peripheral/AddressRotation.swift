import AccessoryCore
import AccessoryRadios

/// `serve --irk HEX [--rotate-seconds N]`: the sensor advertises from
/// resolvable private addresses made from its IRK (`prand` with the marker
/// bits, then `ah` over Nettle's AES, as a bonded accessory does), a new one
/// every N seconds, and counts its rotations in its advertising data so a
/// check can tell which address an advertisement came from. `hold` on the
/// control socket stops the rotation at the current address.
struct AddressRotation {
    let encryptor: any AES128Encryptor
    /// Nil: one address for the whole run.
    let interval: Duration?
    private(set) var address: BluetoothAddress
    /// How many times the address changed since the start (wraps at 256).
    private(set) var count: UInt8 = 0
    private(set) var held = false

    init(irk: SecurityKey, interval: Duration?) {
        encryptor = NettleAES128().encryptor(key: irk.value)
        self.interval = interval
        address = Self.make(encryptor, avoiding: nil)
    }

    var isRotating: Bool { interval != nil && !held }

    mutating func hold() { held = true }

    /// The next address, never the current one again.
    mutating func rotate() {
        address = Self.make(encryptor, avoiding: address)
        count &+= 1
    }

    private static func make(_ encryptor: any AES128Encryptor, avoiding current: BluetoothAddress?) -> BluetoothAddress {
        while true {
            let made = ResolvablePrivateAddress(prand: UInt32.random(in: 0...UInt32.max), key: encryptor).address
            // prand must not be all zeros or all ones in its random part (Vol 6 Part B §1.3.2.2).
            let random = made.rawValue >> 24 & 0x3F_FFFF
            if made != current, random != 0, random != 0x3F_FFFF { return made }
        }
    }
}
