import CSystemd

/// Builds a method return (or a signal) argument by argument.
public final class BusReply {
    let message: OpaquePointer
    private var failed = false

    init(_ message: OpaquePointer) { self.message = message }

    deinit { sd_bus_message_unref(message) }

    @discardableResult
    public func append(_ value: String) -> Self { appendString(value, type: "s") }

    @discardableResult
    public func append(objectPath value: String) -> Self { appendString(value, type: "o") }

    @discardableResult
    public func append(_ value: UInt32) -> Self {
        var v = value
        check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "u")), &v))
        return self
    }

    @discardableResult
    public func append(_ value: Int32) -> Self {
        var v = value
        check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "i")), &v))
        return self
    }

    @discardableResult
    public func append(_ value: Bool) -> Self {
        var v: Int32 = value ? 1 : 0
        check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "b")), &v))
        return self
    }

    @discardableResult
    public func append(_ value: UInt16) -> Self {
        var v = value
        check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "q")), &v))
        return self
    }

    @discardableResult
    public func append(_ value: UInt64) -> Self {
        var v = value
        check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "t")), &v))
        return self
    }

    /// A `h`: the bus duplicates the descriptor into the message; the caller keeps its own.
    @discardableResult
    public func append(fileDescriptor value: Int32) -> Self {
        var v = value
        check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "h")), &v))
        return self
    }

    /// An `a{ss}`.
    @discardableResult
    public func append(pairs: [(key: String, value: String)]) -> Self {
        container("a", "{ss}") { array in
            for (key, value) in pairs { array.container("e", "ss") { $0.append(key).append(value) } }
        }
    }

    /// An `ao`.
    @discardableResult
    public func append(objectPaths: [String]) -> Self {
        container("a", "o") { array in objectPaths.forEach { array.append(objectPath: $0) } }
    }

    /// An `ay`.
    @discardableResult
    public func append(bytes: [UInt8]) -> Self {
        check(bytes.withUnsafeBytes {
            sd_bus_message_append_array(message, CChar(UInt8(ascii: "y")), $0.baseAddress, $0.count)
        })
        return self
    }

    /// An `as`.
    @discardableResult
    public func append(strings: [String]) -> Self {
        check(sd_bus_message_open_container(message, CChar(UInt8(ascii: "a")), "s"))
        for string in strings { append(string) }
        check(sd_bus_message_close_container(message))
        return self
    }

    /// A container (`a`, `r`, `e`, `v`) with `contents` as its signature.
    @discardableResult
    public func container(_ type: Character, _ contents: String, _ body: (BusReply) -> Void) -> Self {
        check(sd_bus_message_open_container(message, CChar(type.asciiValue!), contents))
        body(self)
        check(sd_bus_message_close_container(message))
        return self
    }

    /// A `v` holding a string, uint32 or boolean, for properties.
    @discardableResult
    public func append(variant value: BusVariant) -> Self {
        container("v", value.signature) { reply in
            switch value {
            case .string(let s): reply.append(s)
            case .objectPath(let p): reply.append(objectPath: p)
            case .uint32(let u): reply.append(u)
            case .int32(let i): reply.append(i)
            case .uint64(let t): reply.append(t)
            case .bytes(let bytes): reply.append(bytes: bytes)
            case .pairs(let pairs): reply.append(pairs: pairs.map { (key: $0.key, value: $0.value) })
            case .bool(let b): reply.append(b)
            case .strings(let list): reply.append(strings: list)
            }
        }
    }

    var isValid: Bool { !failed }

    private func appendString(_ value: String, type: Character) -> Self {
        check(value.withCString { sd_bus_message_append_basic(message, CChar(type.asciiValue!), $0) })
        return self
    }

    private func check(_ result: Int32) { if result < 0 { failed = true } }
}

/// The property values the agent's interfaces use.
public enum BusVariant: Hashable, Sendable {
    case string(String)
    case objectPath(String)
    case uint32(UInt32)
    case int32(Int32)
    case uint64(UInt64)
    case bool(Bool)
    case bytes([UInt8])
    /// An `a{ss}`, in order.
    case pairs([Pair])
    case strings([String])

    public struct Pair: Hashable, Sendable {
        public var key: String
        public var value: String
        public init(_ key: String, _ value: String) { self.key = key; self.value = value }
    }

    var signature: String {
        switch self {
        case .string: "s"
        case .objectPath: "o"
        case .uint32: "u"
        case .int32: "i"
        case .uint64: "t"
        case .bytes: "ay"
        case .pairs: "a{ss}"
        case .bool: "b"
        case .strings: "as"
        }
    }
}
