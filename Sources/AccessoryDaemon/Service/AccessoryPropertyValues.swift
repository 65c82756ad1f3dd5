import AccessoryCore
import AccessoryPlatform
import AccessoryWire

/// An `Accessory1` object's properties, as `Get`, `GetManagedObjects` and
/// the signals all show them.
enum AccessoryPropertyValues {
    static func of(_ grant: Grant, center: AuthorizationCenter) -> [(String, BusVariant)] {
        var values = WireAccessoryProperties()
        values.displayName = grant.displayName
        values.state = grant.state.rawValue
        values.app = "\(grant.app)"
        values.bluetoothAddress = grant.bluetooth.map { "\($0.address)" } ?? ""
        values.bluetoothAddressType = grant.bluetooth.map { "\($0.addressType)" } ?? ""
        values.ssid = grant.ssid?.bytes ?? []
        values.descriptor = grant.descriptor.map { DescriptorFields.fields(of: $0).map { BusVariant.Pair($0.key, $0.value) } } ?? []
        values.bridgingIdentifier = grant.bridgingIdentifier ?? ""
        values.present = center.isPresent(grant.accessory)
        values.rssi = BusRSSI.encode(center.rssi(of: grant.accessory))
        return values.variants
    }

    /// The properties a grant's change (a rename, authorization finished or
    /// updated) can change; presence has its own signal, and the rest are
    /// constant (introspection says which).
    static let grantChangeable: Set<String> = Set([
        Accessory1.displayName, Accessory1.state, Accessory1.ssid, Accessory1.descriptor, Accessory1.bridgingIdentifier,
    ].map(\.name))

    /// `{oa{sa{sv}}}`, an object of `GetManagedObjects`, and `{sa{sv}}`, one of its interfaces.
    static let managedObject = FreedesktopInterfaces.getManagedObjects.outputs[0].type.element
    static let interfaceEntry = FreedesktopInterfaces.interfacesAndProperties.element
}
