import AccessoryCore
import AccessoryDecisions
import Logging

/// The bond store's IRKs in discovery: loaded at the start, and again after
/// every write to the store (`BondStore.onChange`), so an accessory paired
/// or removed while accessoryd runs is resolved, or no longer, from its next report.
enum BondedIdentities {
    /// The IRK of each bond that has one, by the accessory's identity address.
    static func keys(_ bonds: some Collection<Bond>) -> [BluetoothDeviceIdentifier: SecurityKey] {
        var keys: [BluetoothDeviceIdentifier: SecurityKey] = [:]
        for bond in bonds { if let irk = bond.irk { keys[bond.identity] = irk } }
        return keys
    }

    /// Keeps `pipeline` following `store` (loaded by the daemon before).
    static func follow(_ store: BondStore, into pipeline: DiscoveryPipeline, logger: Logger) {
        let apply = { (bonds: [AccessoryID: Bond]) in
            pipeline.resolveAddresses(of: keys(bonds.values))
            let identities = pipeline.resolvedIdentities
            if !identities.isEmpty {
                logger.info("Resolving the private addresses of \(identities.count) bonded accessory(ies)",
                            metadata: ["bluetooth.identities": .array(identities.map { .string("\($0)") })])
            }
        }
        apply(store.bonds)
        store.onChange = apply
    }
}
