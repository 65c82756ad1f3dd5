import AccessoryCore
import AccessoryPlatform

/// What bluetoothd's errors mean for a pairing, in the procedure's terms.
/// The names are BlueZ's (doc/org.bluez.Device.rst, Pair and Connect; how
/// src/device.c maps the kernel's management status to them).
enum BluezPairingError {
    static let prefix = "org.bluez.Error."

    /// Device1.Pair's error reply.
    static func pairing(_ error: BusError) -> PairingBackEndError {
        switch error.name {
        // mgmt Rejected or Busy: the accessory said no.
        case prefix + "AuthenticationRejected": .rejectedByAccessory
        // Keys that did not agree: a wrong passkey, a number that did not match.
        case prefix + "AuthenticationFailed": .authenticationFailed
        case prefix + "AuthenticationTimeout": .timedOut
        // mgmt Cancelled, No Resources or Disconnected: the link went while pairing.
        case prefix + "AuthenticationCanceled": .disconnected
        // mgmt Connect Failed ("Page Timeout" for LE too): not there to connect to.
        case prefix + "ConnectionAttemptFailed", prefix + "DoesNotExist": .notFound
        // Someone bonded it through bluetoothd already: that bond is not accessoryd's to take or remove.
        case prefix + "AlreadyExists": .other("bluetoothd holds a bond for it already; remove it there first")
        case prefix + "InProgress": .other("bluetoothd is pairing it for someone else")
        case prefix + "NotReady": .other("the Bluetooth adapter is not powered")
        case "org.freedesktop.DBus.Error.NoReply": .other("bluetoothd did not answer Pair")
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            .other("bluetoothd is not running")
        case "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod":
            .notFound
        default: .other("bluetoothd: \(DisplayText.excerpt(error.name))")
        }
    }

    /// Whether Pair's error leaves no bond of this pairing's making (so abandoning removes nothing).
    static func leftNoBondOfOurs(_ error: BusError) -> Bool {
        error.name == prefix + "AlreadyExists" || error.name == prefix + "InProgress"
    }
}
