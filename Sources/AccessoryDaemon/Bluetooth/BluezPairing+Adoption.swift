import AccessoryCore
import AccessoryPlatform

/// Adopting a bond bluetoothd already keeps, for a migration that names
/// the device (ASMigrationDisplayItem's "peripheral already known").
///
/// bluetoothd is asked with one GetManagedObjects: every Device1 under a
/// controller accessoryd shares, matched by Address and AddressType (after
/// pairing, Address is the identity address the accessory gave, whatever
/// the object's path says). The record says only that bluetoothd keeps the
/// bond: its keys stay in bluetoothd, which loads them into the kernel, so
/// channels ask for medium security and removal is Adapter1.RemoveDevice,
/// as for a bond setup made. bluetoothd does not give the IRK over D-Bus,
/// so the record has none: accessoryd's own scanner cannot resolve such an
/// accessory's private addresses and follows it only while it advertises
/// under its identity address (the kernel, holding the IRK, still connects
/// to it there).
extension BluezPairing: BondAdopter {
    /// How long bluetoothd has to say which devices it keeps bonds of.
    static let lookupTimeout: Duration = .seconds(5)

    /// One lookup's single answer: from the reply or the time box, whichever comes first.
    private final class Lookup {
        var answer: ((BondLookupAnswer) -> Void)?
        var call: PendingBusCall?
        var timer: TimerToken?
        let scheduler: any Scheduler

        init(_ answer: @escaping (BondLookupAnswer) -> Void, scheduler: any Scheduler) {
            self.answer = answer
            self.scheduler = scheduler
        }

        func give(_ result: BondLookupAnswer) {
            guard let answer else { return }
            self.answer = nil
            call?.cancel()
            call = nil
            if let timer { scheduler.cancel(timer) }
            timer = nil
            answer(result)
        }
    }

    public func lookUpBonds(of devices: Set<BluetoothDeviceIdentifier>, answer: @escaping (BondLookupAnswer) -> Void) {
        let lookup = Lookup(answer, scheduler: scheduler)
        guard bluetoothdPresent else {
            scheduler.at(scheduler.now) { lookup.give(.failed("bluetoothd is not running")) }
            return
        }
        let shared = Set(controllers())
        lookup.timer = scheduler.at(scheduler.now.advanced(by: Self.lookupTimeout)) {
            lookup.give(.failed("bluetoothd did not answer within \(Self.lookupTimeout.components.seconds) s"))
        }
        do throws(BusError) {
            // sd-bus's own timeout is later than the time box: the scheduler's decides.
            lookup.call = try bus.callAsync(destination: Self.service, path: "/", interface: "org.freedesktop.DBus.ObjectManager",
                                            member: "GetManagedObjects", timeout: Self.callTimeout, autoStart: false) { result in
                switch result {
                case .success(let reply):
                    do throws(BusError) {
                        lookup.give(.bonded(Self.bonded(try Self.devices(in: reply), among: devices, on: shared)))
                    } catch {
                        lookup.give(.failed("bluetoothd's list of devices could not be read: \(error.name)"))
                    }
                case .failure(let error):
                    lookup.give(.failed("bluetoothd's GetManagedObjects failed: \(DisplayText.excerpt(error.name))"))
                }
            }
        } catch {
            scheduler.at(scheduler.now) { lookup.give(.failed("cannot ask bluetoothd: \(error.name)")) }
        }
    }

    public func adopt(_ adopted: [AccessoryID: BluetoothDeviceIdentifier]) throws {
        guard !adopted.isEmpty else { return }
        var next = store.bonds
        // No IRK: bluetoothd does not give it over D-Bus (see above).
        for (accessory, identity) in adopted { next[accessory] = Bond(accessory: accessory, identity: identity, keeper: .bluetoothd) }
        try store.write(next)
        bonds = next
    }

    /// The devices of `devices` bluetoothd keeps a bond of, on a controller in `controllers`.
    static func bonded(_ listed: [Device], among devices: Set<BluetoothDeviceIdentifier>, on controllers: Set<UInt16>) -> Set<BluetoothDeviceIdentifier> {
        // Paired without bonding leaves no keys to reconnect with: nothing to adopt.
        Set(listed.filter { controllers.contains($0.controller) && devices.contains($0.identifier) && ($0.bonded ?? $0.paired) }
            .map(\.identifier))
    }
}
