import AccessoryCore
import AccessoryWire

extension AccessorySession {
    /// Not an AccessorySetupKit method (Android's `startObservingDevicePresence`):
    /// asks accessoryd to start the app, through the `WakeSocket=` of its
    /// manifest, when `accessory` appears and the app has no session; `false`
    /// withdraws the wish. Kept with the grant, across restarts and reboots.
    /// `invalidRequest` for an accessory not the app's or a manifest without `WakeSocket=`.
    public func observePresence(of accessory: Accessory, _ observe: Bool = true) async throws(AccessorySetupError) {
        try await sessionCall(Session1.observePresence.name) {
            $0.append(objectPath: BusNames.path(of: accessory.id)).append(observe)
        }
    }
}
