import AccessoryCore
import AccessoryPlatform
import AccessoryWire

extension AccessorySession {
    /// A connected channel to `accessory` (a Bluetooth accessory this app
    /// holds): the ATT channel when `psm` is 0, else the connection-oriented
    /// channel on that PSM. `connectionFailed`, with the reason, when the
    /// accessory cannot be reached.
    public func openBluetoothChannel(to accessory: Accessory, psm: UInt16 = 0) async throws(AccessorySetupError) -> BluetoothChannel {
        let (thread, path) = try core.active()
        let fd = try await thread.perform { context throws(AccessorySetupError) -> Int32 in
            let reply = try ServiceCalls.call(context, path: path, interface: BusNames.session, member: Session1.openBluetoothChannel.name) {
                $0.append(objectPath: BusNames.path(of: accessory.id)).append(psm)
            }
            return try ServiceCalls.decode("OpenBluetoothChannel reply") { () throws(BusError) in try reply.takeFileDescriptor() }
        }
        return BluetoothChannel(fileDescriptor: fd)
    }
}
