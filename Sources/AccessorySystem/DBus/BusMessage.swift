import CSystemd

/// A received D-Bus message, read argument by argument in signature order.
/// Reading past the end or the wrong type is an `InvalidArgs` error for the caller.
public struct BusMessage {
    let message: OpaquePointer

    init(_ message: OpaquePointer) { self.message = message }

    public var interface: String? { sd_bus_message_get_interface(message).map { String(cString: $0) } }
    public var member: String? { sd_bus_message_get_member(message).map { String(cString: $0) } }
    public var path: String? { sd_bus_message_get_path(message).map { String(cString: $0) } }
    public var sender: String? { sd_bus_message_get_sender(message).map { String(cString: $0) } }
    public var signature: String { sd_bus_message_get_signature(message, 1).map { String(cString: $0) } ?? "" }

    public func readString() throws(BusError) -> String {
        var value: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &value) > 0, let value else {
            throw .invalidArguments("expected a string argument")
        }
        return String(cString: value)
    }

    public func readObjectPath() throws(BusError) -> String {
        var value: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "o")), &value) > 0, let value else {
            throw .invalidArguments("expected an object path argument")
        }
        return String(cString: value)
    }

    public func readUInt32() throws(BusError) -> UInt32 {
        var value: UInt32 = 0
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &value) > 0 else {
            throw .invalidArguments("expected a uint32 argument")
        }
        return value
    }

    public func readBool() throws(BusError) -> Bool {
        var value: Int32 = 0
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "b")), &value) > 0 else {
            throw .invalidArguments("expected a boolean argument")
        }
        return value != 0
    }

    /// An `ay` argument.
    public func readBytes() throws(BusError) -> [UInt8] {
        var pointer: UnsafeRawPointer?
        var size = 0
        guard sd_bus_message_read_array(message, CChar(UInt8(ascii: "y")), &pointer, &size) >= 0 else {
            throw .invalidArguments("expected a byte array argument")
        }
        guard let pointer, size > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: size))
    }
}
