/// Which interfaces each of accessoryd's objects implements, in the order
/// introspection lists them.
public enum BusObjects {
    /// `/org/accessoryagent`.
    public static let root = [
        Manager1.interface, Admin1.interface, FreedesktopInterfaces.objectManager, FreedesktopInterfaces.properties,
        FreedesktopInterfaces.introspectable, FreedesktopInterfaces.peer,
    ]
    /// `/org/accessoryagent/session/N`.
    public static let session = [
        Session1.interface, FreedesktopInterfaces.properties, FreedesktopInterfaces.introspectable, FreedesktopInterfaces.peer,
    ]
    /// `/org/accessoryagent/accessory/ID`.
    public static let accessory = [
        Accessory1.interface, FreedesktopInterfaces.properties, FreedesktopInterfaces.introspectable, FreedesktopInterfaces.peer,
    ]

    /// The API's own interfaces: what the README's tables describe.
    public static let apiInterfaces = [
        Manager1.interface, Session1.interface, Accessory1.interface, Admin1.interface, PickerAgent1.interface,
    ]
}
