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

    /// Loads `store` (a damaged file is set aside and logged) and keeps `pipeline` following it.
    static func follow(_ store: BondStore, into pipeline: DiscoveryPipeline, logger: Logger) {
        do {
            if case .setAside(let reason, let aside) = try store.load() {
                logger.error("Bond store damaged (\(reason)); set aside as \(aside)",
                             metadata: ["bond_store": "\(store.path)", "bond_store.set_aside": "\(aside)"])
            }
        } catch {
            logger.error("Cannot read the bond store: \(error)", metadata: ["bond_store": "\(store.path)"])
        }
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
