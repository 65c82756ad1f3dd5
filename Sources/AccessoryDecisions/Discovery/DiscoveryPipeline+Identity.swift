import AccessoryCore

/// Bonded accessories behind resolvable private addresses. A report from an
/// address made from a known IRK is recorded under the accessory's identity
/// address, so the registry, matching, presence and the apps see one
/// accessory across its rotations; the address it was heard from last is kept
/// for connecting to it (a kernel without its IRK knows it by that address only).
///
/// The cost per report: none while no IRK is known; else two bit tests for
/// any address that is not resolvable, and for a resolvable one a look-up in
/// the resolver's memory (AES only for an address not seen before).
extension DiscoveryPipeline {
    /// Makes `keys` (identity address → IRK) the bonds whose addresses are
    /// resolved: identities no longer given stop resolving at once, new
    /// ones start with the next report. Nothing without an identity cipher.
    public func resolveAddresses(of keys: [BluetoothDeviceIdentifier: SecurityKey]) {
        guard var resolver else { return }
        self.resolver = nil  // keeps the resolver's storage unique while it changes
        for identity in resolver.identities where keys[identity] == nil {
            resolver.remove(identity: identity)
            addressNow.removeValue(forKey: identity)
        }
        for (identity, irk) in keys.sorted(by: { $0.key < $1.key }) { resolver.add(irk: irk, identity: identity) }
        resolvesAddresses = !resolver.identities.isEmpty
        self.resolver = resolver
    }

    /// The identities whose private addresses are resolved.
    public var resolvedIdentities: [BluetoothDeviceIdentifier] { resolver?.identities ?? [] }

    /// Where to reach `device` now: the private address its identity was
    /// last heard from, or `device` itself (not bonded, or not heard yet).
    public func currentAddress(of device: BluetoothDeviceIdentifier) -> BluetoothDeviceIdentifier {
        addressNow[device] ?? device
    }

    /// The identity behind `device`, nil when it is not a resolvable private
    /// address made from a known IRK; notes the address as its identity's current one.
    func resolvedIdentity(of device: BluetoothDeviceIdentifier) -> BluetoothDeviceIdentifier? {
        guard device.addressType == .random, device.address.rawValue >> 46 == 0b01,
            let identity = resolver?.identity(of: device)
        else { return nil }
        if addressNow[identity] != device {
            addressNow[identity] = device
            onNewAddress?(identity, device)
        }
        return identity
    }
}
