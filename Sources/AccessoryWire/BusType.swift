/// A D-Bus type by its signature, built from the basic types so that a
/// structured argument's signature is spelt once and every reader and
/// writer derives what it needs (an array's element, a struct's contents).
public struct BusType: Hashable, Sendable, CustomStringConvertible {
    public let signature: String

    public init(_ signature: String) { self.signature = signature }

    public var description: String { signature }

    public static let string = BusType("s")
    public static let objectPath = BusType("o")
    public static let boolean = BusType("b")
    public static let byte = BusType("y")
    public static let uint16 = BusType("q")
    public static let int32 = BusType("i")
    public static let uint32 = BusType("u")
    public static let uint64 = BusType("t")
    public static let fileDescriptor = BusType("h")
    public static let variant = BusType("v")

    /// `aT`.
    public static func array(_ element: BusType) -> BusType { BusType("a" + element.signature) }
    /// `(T…)`.
    public static func structure(_ fields: BusType...) -> BusType {
        BusType("(" + fields.map(\.signature).joined() + ")")
    }
    /// `a{KV}`.
    public static func dictionary(_ key: BusType, _ value: BusType) -> BusType {
        BusType("a{" + key.signature + value.signature + "}")
    }

    /// An array's element type (`a(uss)` → `(uss)`; `a{ss}` → `{ss}`).
    public var element: BusType {
        precondition(signature.first == "a", "\(signature) is not an array")
        return BusType(String(signature.dropFirst()))
    }

    /// Inside a struct or dict entry (`(uss)` → `uss`): what sd-bus wants
    /// when one is entered or opened.
    public var contents: String {
        precondition(signature.first == "(" || signature.first == "{", "\(signature) is not a struct or dict entry")
        return String(signature.dropFirst().dropLast())
    }

    /// sd-bus's container code for a struct (`r`) or dict entry (`e`).
    public var containerCode: Character { signature.first == "{" ? "e" : "r" }
}

extension BusType {
    /// `as`: a list of words.
    public static let strings = array(.string)
    /// `ao`.
    public static let objectPaths = array(.objectPath)
    /// `ay`.
    public static let bytes = array(.byte)
    /// `a{ss}`: a descriptor, picker or authorization settings.
    public static let pairs = dictionary(.string, .string)
    /// `a{sv}`: properties.
    public static let properties = dictionary(.string, .variant)
}
