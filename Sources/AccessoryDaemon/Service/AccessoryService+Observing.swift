import AccessoryCore
import AccessoryPlatform
import AccessoryWire

/// `ObservePresence(o accessory, b observe)`: the app asks to be woken
/// (through its manifest's `WakeSocket=`, by `AppWaker`) when the accessory
/// appears and it has no session; the wish is kept in the grant.
extension AccessoryService {
    func observePresence(_ call: BusMessage, _ session: ServiceSession, _ manifest: AppManifest)
        throws(AccessorySetupError) -> BusConnection.MethodOutcome? {
        let id = try BusArguments.accessory(call)
        let observe = try BusArguments.read { () throws(BusError) in try call.readBool() }
        try center.observePresence(id, manifest: manifest, observe: observe)
        return reply(call)
    }
}
