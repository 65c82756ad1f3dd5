extension BluetoothDeviceIdentifier {
    /// `AA:BB:CC:DD:EE:FF` (public) or with `/public` or `/random`, as an
    /// operator types a peer on a command line and the D-Bus API carries it.
    public init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let address = parts.first.flatMap({ BluetoothAddress($0) }) else { return nil }
        switch parts.count == 2 ? String(parts[1]) : "public" {
        case "public": self.init(address: address, addressType: .public)
        case "random": self.init(address: address, addressType: .random)
        default: return nil
        }
    }

    /// The inverse of `init(parsing:)`: the address alone for a public one,
    /// `AA:BB:CC:DD:EE:FF/random` for a random one.
    public var parseableText: String {
        switch addressType {
        case .public, .publicIdentity: "\(address)"
        case .random, .randomIdentity: "\(address)/random"
        }
    }
}
