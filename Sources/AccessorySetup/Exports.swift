// An app imports AccessorySetup alone: the domain types it hands to and gets
// from the agent (DiscoveryDescriptor, BluetoothUUID, SSID, AccessoryID,
// AuthorizationState, AccessorySetupError, …) are AccessoryCore's, re-exported
// so that both sides of the bus share one definition of each.
@_exported import AccessoryCore
