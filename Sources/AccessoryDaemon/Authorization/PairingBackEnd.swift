import AccessoryCore
import AccessoryPlatform

/// What a pairing back end reports about one device, for the device's
/// `PairingProcedure` (the names are the procedure's inputs).
public enum PairingBackEndEvent: Hashable, Sendable {
    case connected
    case connectFailed(PairingBackEndError)
    case prompted(PairingPrompt)
    case promptCancelled
    /// Paired, and the keys are held until `keepBond` or `abandon`.
    case paired
    case pairingFailed(PairingBackEndError)
    case disconnected
}

/// Carries out a `PairingProcedure`'s actions on the radio: the kernel's
/// management interface without bluetoothd (`ManagementPairing`); beside
/// bluetoothd its D-Bus API (`BluezPairing`). Events come back through
/// `report`, on the event loop, never inside the call that caused them.
public protocol PairingBackEnd: AnyObject {
    /// Why no pairing can start now, as the failure's words; nil when one can.
    var refusal: String? { get }
    /// Whether a prompt other than Just Works can reach the approver; when
    /// not, the gateway offers no input or output and answers Just Works itself.
    var asksApprover: Bool { get }
    var report: (BluetoothDeviceIdentifier, PairingBackEndEvent) -> Void { get set }

    func connect(_ device: BluetoothDeviceIdentifier)
    func pair(_ device: BluetoothDeviceIdentifier, capability: PairingIOCapability)
    func reply(_ reply: PairingReply, to device: BluetoothDeviceIdentifier)
    /// Stops the pairing if it runs and forgets whatever keys it produced.
    func abandon(_ device: BluetoothDeviceIdentifier)
    /// The pairing completed: keep its keys as `accessory`'s bond, durable
    /// before returning, and return the address the bond names (the identity
    /// address the accessory shared, else `device`): the grant takes it.
    /// A throw keeps nothing (the caller abandons).
    func keepBond(of device: BluetoothDeviceIdentifier, for accessory: AccessoryID) throws -> BluetoothDeviceIdentifier
    /// The accessory's grant is gone: forget its bond, here and in the kernel.
    func removeBond(of accessory: AccessoryID, device: BluetoothDeviceIdentifier?)
}
