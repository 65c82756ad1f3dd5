import AccessoryATT
/// A controller coming or going, as the kernel tells HCI sockets bound to no
/// controller (HCI_DEV_NONE): a stack-internal event (code 0xFD) whose
/// parameters are a 16-bit type, EVT_SI_DEVICE (1), then the device event
/// and the controller index, all little endian (the kernel's
/// `struct hci_ev_si_device`, include/net/bluetooth/hci.h).
public struct HCIDeviceEvent: Hashable, Sendable {
    public enum Kind: UInt16, Hashable, Sendable {
        /// The controller was registered (`hciN` appeared).
        case registered = 1
        /// The controller is being removed.
        case unregistered = 2
        case up = 3
        case down = 4
    }

    public var kind: Kind
    /// The HCI index: 0 for `hci0`.
    public var controllerIndex: UInt16

    public init(kind: Kind, controllerIndex: UInt16) {
        self.kind = kind
        self.controllerIndex = controllerIndex
    }

    /// The stack-internal event code (EVT_STACK_INTERNAL).
    public static let stackInternalEventCode: UInt8 = 0xFD
    /// The stack-internal event type of a device event (EVT_SI_DEVICE).
    static let deviceEventType: UInt16 = 0x0001
    static let parameterLength = 6

    /// The device event inside a decoded HCI event; nil for any other event
    /// (another event code, or another stack-internal type).
    public static func decode(_ event: HCIEvent) throws(HCIDeviceEventError) -> HCIDeviceEvent? {
        guard case .other(stackInternalEventCode, let parameters) = event else { return nil }
        var reader = BluetoothByteReader(parameters)
        guard let type = reader.readUInt16LE() else { throw .truncated(length: parameters.count) }
        guard type == deviceEventType else { return nil }
        guard let rawKind = reader.readUInt16LE(), let index = reader.readUInt16LE() else {
            throw .truncated(length: parameters.count)
        }
        guard let kind = Kind(rawValue: rawKind) else { throw .unknownKind(rawKind) }
        return HCIDeviceEvent(kind: kind, controllerIndex: index)
    }
}

/// Why a stack-internal device event could not be read.
public enum HCIDeviceEventError: Error, Hashable, Sendable {
    /// Fewer than the six parameter octets of a device event.
    case truncated(length: Int)
    /// A device event kind the kernel does not send to HCI sockets today.
    case unknownKind(UInt16)
}
