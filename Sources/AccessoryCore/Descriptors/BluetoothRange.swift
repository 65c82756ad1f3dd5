/// How close a Bluetooth accessory must be (`ASDiscoveryDescriptor.Range`).
/// Linux has no proximity sensor: `.immediate` means a received signal at or
/// above `MatchingConfiguration.immediateRSSIThreshold`.
public enum BluetoothRange: String, Hashable, Sendable, CaseIterable {
    case `default`
    case immediate
}
