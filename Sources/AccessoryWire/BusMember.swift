/// One argument of a method or signal: its name (shown by introspection;
/// the freedesktop interfaces leave theirs unnamed) and type.
public struct BusArgument: Hashable, Sendable {
    public let name: String?
    public let type: BusType

    public init(_ name: String?, _ type: BusType) {
        self.name = name
        self.type = type
    }
}

/// A method: the arguments it takes and the ones its reply carries.
public struct BusMethod: Hashable, Sendable {
    public let name: String
    public let inputs: [BusArgument]
    public let outputs: [BusArgument]

    public init(_ name: String, in inputs: [BusArgument] = [], out outputs: [BusArgument] = []) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
    }

    public var inputSignature: String { inputs.map(\.type.signature).joined() }
    public var outputSignature: String { outputs.map(\.type.signature).joined() }
}

/// A signal and its arguments.
public struct BusSignal: Hashable, Sendable {
    public let name: String
    public let arguments: [BusArgument]

    public init(_ name: String, _ arguments: [BusArgument] = []) {
        self.name = name
        self.arguments = arguments
    }

    public var signature: String { arguments.map(\.type.signature).joined() }
}

/// A property: its type, who may write it, and what
/// `org.freedesktop.DBus.Property.EmitsChangedSignal` promises.
public struct BusProperty: Hashable, Sendable {
    public enum Access: String, Hashable, Sendable { case read, write, readwrite }

    /// D-Bus's values for the annotation; `true` is the default, left unsaid.
    public enum EmitsChangedSignal: String, Hashable, Sendable {
        /// `PropertiesChanged` carries the new value (the default).
        case `true`
        /// `PropertiesChanged` names it without its value.
        case invalidates
        /// It never changes while the object lives.
        case const
        /// It changes without `PropertiesChanged`.
        case `false`
    }

    public let name: String
    public let type: BusType
    public let access: Access
    public let emitsChangedSignal: EmitsChangedSignal

    public init(_ name: String, _ type: BusType, access: Access = .read, emitsChangedSignal: EmitsChangedSignal = .true) {
        self.name = name
        self.type = type
        self.access = access
        self.emitsChangedSignal = emitsChangedSignal
    }
}

/// An interface: its name and every member, in the order introspection shows them.
public struct BusInterface: Hashable, Sendable {
    public let name: String
    public let methods: [BusMethod]
    public let signals: [BusSignal]
    public let properties: [BusProperty]

    public init(_ name: String, methods: [BusMethod] = [], signals: [BusSignal] = [], properties: [BusProperty] = []) {
        self.name = name
        self.methods = methods
        self.signals = signals
        self.properties = properties
    }

    public func method(_ name: String) -> BusMethod? { methods.first { $0.name == name } }
    public func signal(_ name: String) -> BusSignal? { signals.first { $0.name == name } }
    public func property(_ name: String) -> BusProperty? { properties.first { $0.name == name } }
}
