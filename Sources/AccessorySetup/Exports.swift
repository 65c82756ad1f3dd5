// An app imports AccessorySetup alone. The domain types it hands to the agent
// and gets back are AccessoryCore's, so both ends of the bus share one
// definition of each; they are re-exported one by one, not the whole module,
// so an app sees the client's API and not the daemon's internals.
@_exported import struct AccessoryCore.DiscoveryDescriptor
@_exported import enum AccessoryCore.DiscoveryDescriptorError
@_exported import enum AccessoryCore.NamePatternError
@_exported import struct AccessoryCore.NameCompareOptions
@_exported import enum AccessoryCore.BluetoothRange
@_exported import struct AccessoryCore.AccessorySupportOptions
@_exported import struct AccessoryCore.BSSIDFilter
@_exported import struct AccessoryCore.BluetoothUUID
@_exported import struct AccessoryCore.HardwareAddress
@_exported import typealias AccessoryCore.BluetoothAddress
@_exported import typealias AccessoryCore.BSSID
@_exported import enum AccessoryCore.BluetoothAddressType
@_exported import struct AccessoryCore.BluetoothDeviceIdentifier
@_exported import struct AccessoryCore.SSID
@_exported import struct AccessoryCore.AccessoryID
@_exported import enum AccessoryCore.AuthorizationState
@_exported import struct AccessoryCore.AccessorySetupError
@_exported import enum AccessoryCore.ManifestViolation
@_exported import enum AccessoryCore.AccessoryEventType
@_exported import struct AccessoryCore.PickerDisplayItem
@_exported import struct AccessoryCore.PickerDisplaySettings
