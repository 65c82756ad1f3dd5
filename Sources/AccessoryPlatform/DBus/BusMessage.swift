import AccessoryCore
import CSystemd
import Glibc

/// A received D-Bus message, read argument by argument in signature order.
/// Reading past the end or the wrong type is an `InvalidArgs` error for the caller.
public final class BusMessage {
    let message: OpaquePointer

    /// A message sd-bus lends for the duration of a callback.
    init(_ message: OpaquePointer) { self.message = sd_bus_message_ref(message) }

    /// A message whose reference is handed over (a reply from `sd_bus_call`).
    init(adopting message: OpaquePointer) { self.message = message }

    deinit { sd_bus_message_unref(message) }

    public var interface: String? { sd_bus_message_get_interface(message).map { String(cString: $0) } }
    public var member: String? { sd_bus_message_get_member(message).map { String(cString: $0) } }
    public var path: String? { sd_bus_message_get_path(message).map { String(cString: $0) } }
    public var sender: String? { sd_bus_message_get_sender(message).map { String(cString: $0) } }
    public var signature: String { sd_bus_message_get_signature(message, 1).map { String(cString: $0) } ?? "" }

    public func readString() throws(BusError) -> String {
        var value: UnsafePointer<CChar>?
        let result = sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &value)
        guard result > 0, let value else {
            // The bus daemon passes noncharacters (U+FFFF, U+FDD0…) as the
            // D-Bus spec allows; sd-bus refuses them as not UTF-8 (EBADMSG).
            if result == -EBADMSG { throw .invalidArguments(Self.notUTF8) }
            throw .invalidArguments("expected a string argument")
        }
        return String(cString: value)
    }

    /// Why a string argument was unreadable although it is one.
    public static let notUTF8 = "a string argument is not valid UTF-8 as accessoryd reads it: "
        + "it holds a Unicode noncharacter (U+FFFE, U+FFFF, U+FDD0 to U+FDEF…) or a NUL; send text without them"

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

// MARK: Containers

extension BusMessage {
    /// Reads an array whose elements have signature `contents`, calling
    /// `element` once per element (which reads the element's fields).
    public func readArray(_ contents: String, _ element: () throws(BusError) -> Void) throws(BusError) {
        guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), contents) > 0 else {
            throw .invalidArguments("expected an array of \(contents)")
        }
        while sd_bus_message_at_end(message, 0) == 0 {
            try element()
        }
        _ = sd_bus_message_exit_container(message)
    }

    /// Reads a struct (`r`) or dict entry (`e`) with signature `contents`.
    public func readContainer(_ type: Character, _ contents: String, _ body: () throws(BusError) -> Void) throws(BusError) {
        guard sd_bus_message_enter_container(message, CChar(type.asciiValue!), contents) > 0 else {
            throw .invalidArguments("expected (\(contents))")
        }
        try body()
        _ = sd_bus_message_exit_container(message)
    }

    /// An `as` argument.
    public func readStrings() throws(BusError) -> [String] {
        var strings: [String] = []
        try readArray("s") { () throws(BusError) in strings.append(try readString()) }
        return strings
    }

    /// An `a{ss}` argument, in the order sent; a key sent twice is an error.
    /// Linear in the entries: keys seen go into a set, so a dictionary of a
    /// hundred thousand entries costs a hundred thousand lookups, not their square.
    /// With `maxEntries`, one entry more ends the reading at once with a
    /// `BusError.limitsExceeded`, before the rest is looked at.
    public func readStringPairs(maxEntries: Int = .max) throws(BusError) -> [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        var keys: Set<String> = []
        try readArray("{ss}") { () throws(BusError) in
            guard pairs.count < maxEntries else { throw .limitsExceeded("more than \(maxEntries) entries") }
            try readContainer("e", "ss") { () throws(BusError) in
                let key = try readString()
                let value = try readString()
                guard keys.insert(key).inserted else {
                    throw .invalidArguments("key \(DisplayText.excerpt(key)) is given twice; each key at most once")
                }
                pairs.append((key, value))
            }
        }
        return pairs
    }

    /// An `o` array argument.
    public func readObjectPaths() throws(BusError) -> [String] {
        var paths: [String] = []
        try readArray("o") { () throws(BusError) in paths.append(try readObjectPath()) }
        return paths
    }

    public func readInt32() throws(BusError) -> Int32 {
        var value: Int32 = 0
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "i")), &value) > 0 else {
            throw .invalidArguments("expected an int32 argument")
        }
        return value
    }

    public func readUInt16() throws(BusError) -> UInt16 {
        var value: UInt16 = 0
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "q")), &value) > 0 else {
            throw .invalidArguments("expected a uint16 argument")
        }
        return value
    }

    public func readUInt64() throws(BusError) -> UInt64 {
        var value: UInt64 = 0
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "t")), &value) > 0 else {
            throw .invalidArguments("expected a uint64 argument")
        }
        return value
    }

    /// A `h` argument: the received descriptor, owned by the message. Dup it to keep it.
    public func readFileDescriptor() throws(BusError) -> Int32 {
        var value: Int32 = -1
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "h")), &value) > 0 else {
            throw .invalidArguments("expected a file descriptor argument")
        }
        return value
    }

    /// A `h` argument as a descriptor of the caller's own (a duplicate, close-on-exec).
    public func takeFileDescriptor() throws(BusError) -> Int32 {
        let borrowed = try readFileDescriptor()
        let own = fcntl(borrowed, F_DUPFD_CLOEXEC, 3)
        guard own >= 0 else { throw BusError(name: "org.freedesktop.DBus.Error.Failed", message: "cannot keep the descriptor: errno \(errno)") }
        return own
    }

    /// Skips the rest of the current container or message.
    public func skipRest() { _ = sd_bus_message_skip(message, nil) }

    /// Whether this is an error reply, and which.
    public var error: BusError? {
        guard let error = sd_bus_message_get_error(message), sd_bus_error_is_set(error) != 0 else { return nil }
        return BusError(name: error.pointee.name.map { String(cString: $0) } ?? "",
                        message: error.pointee.message.map { String(cString: $0) } ?? "")
    }
}
