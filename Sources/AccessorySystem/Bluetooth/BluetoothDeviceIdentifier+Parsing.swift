import AccessoryCore

extension BluetoothDeviceIdentifier {
    /// `AA:BB:CC:DD:EE:FF` (public) or with `/public` or `/random`, as an
    /// operator types a peer on a command line.
    public init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let address = parts.first.flatMap({ BluetoothAddress($0) }) else { return nil }
        switch parts.count == 2 ? String(parts[1]) : "public" {
        case "public": self.init(address: address, addressType: .public)
        case "random": self.init(address: address, addressType: .random)
        default: return nil
        }
    }
}
