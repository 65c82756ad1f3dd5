/// The freedesktop interfaces accessoryd's objects implement, as
/// introspection shows them (their arguments unnamed, as in the specification).
public enum FreedesktopInterfaces {
    public static let introspect = BusMethod("Introspect", out: [BusArgument("xml", .string)])
    public static let introspectable = BusInterface(BusNames.introspectable, methods: [introspect])

    public static let get = BusMethod("Get", in: [BusArgument(nil, .string), BusArgument(nil, .string)], out: [BusArgument(nil, .variant)])
    public static let getAll = BusMethod("GetAll", in: [BusArgument(nil, .string)], out: [BusArgument(nil, .properties)])
    public static let propertiesChanged = BusSignal(
        "PropertiesChanged", [BusArgument(nil, .string), BusArgument(nil, .properties), BusArgument(nil, .strings)])
    public static let properties = BusInterface(BusNames.properties, methods: [get, getAll], signals: [propertiesChanged])

    /// `a{sa{sv}}`: interfaces and their properties.
    public static let interfacesAndProperties = BusType.dictionary(.string, .properties)
    public static let getManagedObjects = BusMethod(
        "GetManagedObjects", out: [BusArgument(nil, .dictionary(.objectPath, interfacesAndProperties))])
    public static let interfacesAdded = BusSignal(
        "InterfacesAdded", [BusArgument(nil, .objectPath), BusArgument(nil, interfacesAndProperties)])
    public static let interfacesRemoved = BusSignal("InterfacesRemoved", [BusArgument(nil, .objectPath), BusArgument(nil, .strings)])
    public static let objectManager = BusInterface(
        BusNames.objectManager, methods: [getManagedObjects], signals: [interfacesAdded, interfacesRemoved])

    /// Answered by sd-bus itself on every object.
    public static let ping = BusMethod("Ping")
    public static let getMachineId = BusMethod("GetMachineId", out: [BusArgument("machine_uuid", .string)])
    public static let peer = BusInterface(BusNames.peer, methods: [ping, getMachineId])
}
