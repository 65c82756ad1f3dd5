/// Something a descriptor uses that its app's manifest does not declare;
/// names the value, so the developer knows which line to add.
public enum ManifestViolation: Hashable, Sendable, CustomStringConvertible {
    /// A Bluetooth descriptor from an app whose `Supports=` lacks Bluetooth.
    case bluetoothNotSupported
    /// A Wi-Fi descriptor from an app whose `Supports=` lacks Wi-Fi.
    case wifiNotSupported
    case undeclaredServiceUUID(BluetoothUUID)
    case undeclaredCompanyIdentifier(UInt16)
    /// A name substring or name pattern not listed in `Names=`.
    case undeclaredName(String)
    /// `SupportedOptions=bluetoothPairingLE` from an app without `[Bluetooth] Pairing=yes`.
    case undeclaredPairing
    case undeclaredSSID(SSID)
    case undeclaredSSIDPrefix([UInt8])
    /// A display item's or shown candidate's image that is not one of the
    /// manifest's `ProductImage=` files that passed their checks.
    case undeclaredProductImage(String)

    public var description: String {
        switch self {
        case .bluetoothNotSupported:
            "Bluetooth is not in [App] Supports="
        case .wifiNotSupported:
            "Wi-Fi is not in [App] Supports="
        case .undeclaredServiceUUID(let uuid):
            "service UUID \(uuid) is not in [Bluetooth] ServiceUUIDs="
        case .undeclaredCompanyIdentifier(let id):
            "company identifier 0x\(hexByte(UInt8(id >> 8), uppercase: true))\(hexByte(UInt8(id & 0xFF), uppercase: true)) is not in [Bluetooth] CompanyIdentifiers="
        case .undeclaredName(let name):
            "name '\(name)' is not in [Bluetooth] Names="
        case .undeclaredPairing:
            "option bluetoothPairingLE needs [Bluetooth] Pairing=yes"
        case .undeclaredSSID(let ssid):
            "SSID '\(ssid.displayName)' is not in [Wi-Fi] SSIDs= and has no prefix in SSIDPrefixes="
        case .undeclaredSSIDPrefix(let prefix):
            "SSID prefix '\(SSIDText.escaped(prefix))' does not start with any of [Wi-Fi] SSIDPrefixes="
        case .undeclaredProductImage(let path):
            "product image '\(path)' is not in [App] ProductImage= (or its file was refused at load)"
        }
    }
}
