import AccessoryCore
import AccessoryPlatform

/// Finding the accessory's Device1 in bluetoothd, reading bluetoothd's list of
/// devices (for a removal and for a migration's adoption), and forgetting it.
///
/// Device1.Pair needs bluetoothd to know the device. Adapter1.ConnectDevice
/// would create it from the address alone, but it is experimental in BlueZ
/// 5.66 (bookworm) and 5.82 (trixie) alike, so it exists only when
/// bluetoothd runs with `-E`; the path that works everywhere is a discovery
/// of accessoryd's (SetDiscoveryFilter for LE, StartDiscovery) until the
/// device's InterfacesAdded, then StopDiscovery. A device bluetoothd knows
/// already is used as it is.
extension BluezPairing {
    func find(_ device: BluetoothDeviceIdentifier) {
        guard let path = pairings[device]?.path else { return }
        do {
            try bus.callAsync(destination: Self.service, path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
                              timeout: Self.callTimeout, autoStart: false, { call in
                call.append("org.bluez.Device1").append("Address")
            }) { [weak self] result in
                guard let self, self.pairings[device]?.stage == .finding else { return }
                switch result {
                case .success: self.found(device)
                case .failure(let error) where error.name.hasPrefix("org.freedesktop.DBus.Error.Unknown")
                    || error.name == "org.freedesktop.DBus.Error.InvalidArgs":
                    self.startDiscovery(for: device)
                case .failure(let error):
                    self.pairings[device] = nil
                    self.report(device, .connectFailed(BluezPairingError.pairing(error)))
                }
            }
        } catch {
            pairings[device] = nil
            later(device, .connectFailed(.other("cannot ask bluetoothd: \(error.name)")))
        }
    }

    func interfacesAdded(_ signal: BusMessage) {
        guard let path = try? signal.readObjectPath(),
              let device = pairings.first(where: { $0.value.path == path && $0.value.stage == .finding })?.key else { return }
        found(device)
    }

    private func found(_ device: BluetoothDeviceIdentifier) {
        pairings[device]?.stage = .found
        stopDiscoveryIfIdle()
        later(device, .connected)
    }

    private func startDiscovery(for device: BluetoothDeviceIdentifier) {
        guard discovering == nil, let controller = pairings[device]?.controller else { return }
        discovering = controller
        let adapter = BluezObjectPath.adapter(controller)
        // LE only: the accessory is an LE peripheral, and BR/EDR inquiry would only slow the finding.
        callLogged(adapter, "org.bluez.Adapter1", "SetDiscoveryFilter") { call in
            call.container("a", "{sv}") { filter in
                filter.container("e", "sv") { entry in entry.append("Transport").append(variant: .string("le")) }
            }
        }
        do {
            try bus.callAsync(destination: Self.service, path: adapter, interface: "org.bluez.Adapter1", member: "StartDiscovery",
                              timeout: Self.callTimeout, autoStart: false) { [weak self] result in
                guard let self, case .failure(let error) = result, error.name != "org.bluez.Error.InProgress" else { return }
                self.discovering = nil
                for (waiting, pairing) in self.pairings where pairing.stage == .finding {
                    self.pairings[waiting] = nil
                    self.report(waiting, .connectFailed(BluezPairingError.pairing(error)))
                }
            }
        } catch {
            discovering = nil
            pairings[device] = nil
            later(device, .connectFailed(.other("cannot start bluetoothd's discovery: \(error.name)")))
        }
    }

    func stopDiscoveryIfIdle() {
        guard let controller = discovering, !pairings.values.contains(where: { $0.stage == .finding }) else { return }
        discovering = nil
        callLogged(BluezObjectPath.adapter(controller), "org.bluez.Adapter1", "StopDiscovery")
    }

    /// Adapter1.RemoveDevice for every Device1 whose address is `address`:
    /// its path may still carry the private address it was paired at, so the
    /// objects are looked through rather than the path guessed.
    func removeDevices(at address: BluetoothAddress, for accessory: AccessoryID) {
        let fallback = controllers().map { BluezObjectPath.device(address, on: $0) }
        do {
            try bus.callAsync(destination: Self.service, path: "/", interface: "org.freedesktop.DBus.ObjectManager",
                              member: "GetManagedObjects", timeout: Self.callTimeout, autoStart: false) { [weak self] result in
                guard let self else { return }
                let paths: [String]
                switch result {
                case .success(let reply):
                    paths = (try? Self.devices(in: reply))?.filter { $0.identifier.address == address }.map(\.path) ?? fallback
                case .failure(let error):
                    logger.warning("Cannot list bluetoothd's devices to remove the bond of accessory \(accessory): \(error.name)",
                                   metadata: ["accessory.id": "\(accessory)"])
                    paths = fallback
                }
                for path in paths {
                    guard let (controller, _) = BluezObjectPath.device(path) else { continue }
                    callLogged(BluezObjectPath.adapter(controller), "org.bluez.Adapter1", "RemoveDevice") { $0.append(objectPath: path) }
                }
            }
        } catch {
            logger.warning("Cannot ask bluetoothd to remove the bond of accessory \(accessory): \(error.name)",
                           metadata: ["accessory.id": "\(accessory)"])
        }
    }

    /// A Device1 as GetManagedObjects lists it: what adoption and removal look at.
    struct Device: Hashable {
        var path: String
        var controller: UInt16
        var identifier: BluetoothDeviceIdentifier
        var paired: Bool
        /// nil where bluetoothd has no Bonded property (before BlueZ 5.65ish: Paired meant bonded).
        var bonded: Bool?
    }

    /// The Device1 objects of a GetManagedObjects reply (`a{oa{sa{sv}}}`);
    /// one whose path, Address or AddressType is not bluetoothd's form is left out.
    static func devices(in reply: BusMessage) throws(BusError) -> [Device] {
        var devices: [Device] = []
        try reply.readArray("{oa{sa{sv}}}") { () throws(BusError) in
            try reply.readContainer("e", "oa{sa{sv}}") { () throws(BusError) in
                let path = try reply.readObjectPath()
                try reply.readArray("{sa{sv}}") { () throws(BusError) in
                    try reply.readContainer("e", "sa{sv}") { () throws(BusError) in
                        guard try reply.readString() == "org.bluez.Device1" else { return try reply.skip("a{sv}") }
                        var address: BluetoothAddress?
                        var type: BluetoothAddressType?
                        var paired = false
                        var bonded: Bool?
                        try reply.readArray("{sv}") { () throws(BusError) in
                            try reply.readContainer("e", "sv") { () throws(BusError) in
                                let name = try reply.readString()
                                switch (name, reply.peekType()?.contents) {
                                case ("Address", "s"):
                                    try reply.readContainer("v", "s") { () throws(BusError) in address = BluetoothAddress(try reply.readString()) }
                                case ("AddressType", "s"):
                                    try reply.readContainer("v", "s") { () throws(BusError) in
                                        type = switch try reply.readString() {
                                        case "public": .public
                                        case "random": .random
                                        default: nil
                                        }
                                    }
                                case ("Paired", "b"):
                                    try reply.readContainer("v", "b") { () throws(BusError) in paired = try reply.readBool() }
                                case ("Bonded", "b"):
                                    try reply.readContainer("v", "b") { () throws(BusError) in bonded = try reply.readBool() }
                                default:
                                    try reply.skip("v")
                                }
                            }
                        }
                        if let (controller, _) = BluezObjectPath.device(path), let address, let type {
                            devices.append(Device(path: path, controller: controller, identifier: BluetoothDeviceIdentifier(address: address, addressType: type),
                                                  paired: paired, bonded: bonded))
                        }
                    }
                }
            }
        }
        return devices
    }
}
