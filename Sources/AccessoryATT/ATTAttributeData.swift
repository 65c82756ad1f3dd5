import AccessoryCore

/// One entry of a Read By Group Type Response: a group (a service) from its
/// declaration's handle to its last handle, and the declaration's value.
public struct ATTGroupData: Hashable, Sendable {
    public var handle: UInt16
    public var endGroupHandle: UInt16
    public var value: [UInt8]

    public init(handle: UInt16, endGroupHandle: UInt16, value: [UInt8]) {
        self.handle = handle
        self.endGroupHandle = endGroupHandle
        self.value = value
    }
}

/// One entry of a Read By Type Response: an attribute's handle and value.
public struct ATTHandleValue: Hashable, Sendable {
    public var handle: UInt16
    public var value: [UInt8]

    public init(handle: UInt16, value: [UInt8]) {
        self.handle = handle
        self.value = value
    }
}

/// One entry of a Find Information Response: an attribute's handle and type.
public struct ATTHandleType: Hashable, Sendable {
    public var handle: UInt16
    public var type: BluetoothUUID

    public init(handle: UInt16, type: BluetoothUUID) {
        self.handle = handle
        self.type = type
    }
}
