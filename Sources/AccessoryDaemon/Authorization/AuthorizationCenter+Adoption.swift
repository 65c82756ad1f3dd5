import AccessoryCore
import AccessoryPlatform
import Logging

/// A migration adopting the bonds bluetoothd already keeps of its items
/// (`MigrationBondAdoption` says when and why): asked when the request
/// opens, recorded once its grants are durable. The grant comes first: a
/// grant without a record is a migration as it was before adoption, while a
/// record without a grant would name bluetoothd's bond for nothing.
extension AuthorizationCenter {
    /// The back end that can adopt a bond now: BluezPairing while bluetoothd runs.
    var bondAdopter: (any BondAdopter)? { pairingBackEnd as? any BondAdopter }

    /// Migration request `number` opened: asks bluetoothd about its Bluetooth items.
    func lookUpBonds(forMigration number: UInt32) {
        // Requests that ended otherwise (denied, withdrawn, timed out) leave their lookups here.
        bondLookups = bondLookups.filter { core.requests.open[$0.key] != nil }
        guard let request = core.requests.open[number], case .migration(let items) = request.kind else { return }
        let devices = Set(items.compactMap { item -> BluetoothDeviceIdentifier? in
            if case .bluetooth(let device) = item.identity { device } else { nil }
        })
        guard !devices.isEmpty, let adopter = bondAdopter else { return }
        bondLookups[number] = .asking
        adopter.lookUpBonds(of: devices) { [weak self] answer in
            guard let self, bondLookups[number] == .asking else { return }
            bondLookups[number] = .answered(answer)
            logger.debug("bluetoothd answered for migration request \(number): \(answer)", metadata: ["request": "\(number)"])
        }
    }

    /// Migration `request` granted `granted`: each Bluetooth one whose bond
    /// bluetoothd keeps gets its record.
    func adoptBonds(of request: SetupRequest, granted: [AccessoryID]) {
        let lookup = bondLookups.removeValue(forKey: request.number)
        let adopter = bondAdopter
        var adopted: [AccessoryID: BluetoothDeviceIdentifier] = [:]
        for id in granted {
            guard let device = core.grants[id]?.bluetooth else { continue }
            let metadata: Logger.Metadata = ["app": "\(request.app)", "accessory.id": "\(id)", "identity": "\(device)",
                                             "request": "\(request.number)"]
            switch MigrationBondAdoption.outcome(for: device, lookup: lookup, keeperPresent: adopter != nil) {
            case .adopt:
                adopted[id] = device
            case .notBonded:
                logger.debug("bluetoothd keeps no bond of \(device): accessory \(id) migrated without one", metadata: metadata)
            case .noKeeper:
                logger.debug("No bluetoothd: accessory \(id) (\(device)) migrated without adopting a bond", metadata: metadata)
            case .unknown(let why):
                logger.warning("Accessory \(id) (\(device)) migrated without adopting a bond, as whether bluetoothd keeps one is not known (\(why)): channels to it do not ask for encryption, and its removal leaves any bond of bluetoothd's",
                               metadata: metadata)
            }
        }
        guard let adopter, !adopted.isEmpty else { return }
        do {
            try adopter.adopt(adopted)
        } catch {
            logger.error("Cannot record the bonds bluetoothd keeps of \(adopted.count) migrated accessory(ies), so they are granted without: \(error)",
                         metadata: ["app": "\(request.app)", "request": "\(request.number)"])
            return
        }
        for (id, device) in adopted.sorted(by: { $0.key < $1.key }) {
            logger.log(.bondAdopted, level: .notice, "Bond adopted from bluetoothd for accessory \(id) (\(device)) of \(request.app)",
                       metadata: ["app": "\(request.app)", "accessory.id": "\(id)", "identity": "\(device)",
                                  "request": "\(request.number)", "bond.keeper": "bluetoothd"])
        }
    }
}
