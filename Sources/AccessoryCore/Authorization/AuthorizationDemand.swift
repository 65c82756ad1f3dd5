/// What the apps need the radios for, as a pure function of the open
/// requests and the grants: the wiring reads it after each decision and
/// tells the radios; nothing calls back into the core.
public struct AuthorizationDemand: Hashable, Sendable {
    /// Wi-Fi must be scanned: a request discovering with a Wi-Fi descriptor,
    /// or a Wi-Fi accessory granted, whose app follows its presence.
    public var wifi: Bool
    /// Bluetooth LE must be scanned: a request discovering with a Bluetooth
    /// descriptor, or a Bluetooth accessory granted.
    public var bluetooth: Bool
    /// SSIDs the requests name: hidden hotspots answer only probe requests that name them.
    public var probeSSIDs: [SSID]

    public init(requests: RequestBook, grants: GrantBook) {
        let discovering = requests.open.values.filter(\.discovering).flatMap(\.pickerItems).map(\.descriptor)
        wifi = discovering.contains(where: \.describesWiFi) || grants.all.values.contains { $0.ssid != nil }
        bluetooth = discovering.contains(where: \.describesBluetooth) || grants.all.values.contains { $0.bluetooth != nil }
        probeSSIDs = requests.open.keys.sorted().flatMap { requests.open[$0]!.pickerItems.compactMap(\.descriptor.ssid) }
    }
}
