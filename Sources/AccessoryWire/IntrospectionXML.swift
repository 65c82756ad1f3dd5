/// The introspection data `busctl introspect` shows, generated from the
/// interfaces' declarations, so what an object says it offers is what the
/// daemon and its clients were built against.
public enum IntrospectionXML {
    public static let root = document(BusObjects.root)
    public static let session = document(BusObjects.session)
    public static let accessory = document(BusObjects.accessory)

    static let header = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        """

    /// A node implementing `interfaces`.
    public static func document(_ interfaces: [BusInterface]) -> String {
        var lines = [header, "<node>"]
        for interface in interfaces {
            lines.append("  <interface name=\"\(interface.name)\">")
            for method in interface.methods {
                let arguments = method.inputs.map { argument($0, direction: "in") } + method.outputs.map { argument($0, direction: "out") }
                lines.append("    " + element("method", name: method.name, arguments))
            }
            for signal in interface.signals {
                lines.append("    " + element("signal", name: signal.name, signal.arguments.map { argument($0, direction: nil) }))
            }
            for property in interface.properties {
                let open = "<property name=\"\(property.name)\" type=\"\(property.type)\" access=\"\(property.access.rawValue)\""
                lines.append("    " + (property.emitsChangedSignal == .true ? open + "/>" : open + ">"
                    + "<annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"\(property.emitsChangedSignal.rawValue)\"/>"
                    + "</property>"))
            }
            lines.append("  </interface>")
        }
        lines.append("</node>")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func argument(_ argument: BusArgument, direction: String?) -> String {
        let name = argument.name.map { "name=\"\($0)\" " } ?? ""
        return "<arg \(name)type=\"\(argument.type)\"" + (direction.map { " direction=\"\($0)\"" } ?? "") + "/>"
    }

    private static func element(_ kind: String, name: String, _ children: [String]) -> String {
        children.isEmpty ? "<\(kind) name=\"\(name)\"/>" : "<\(kind) name=\"\(name)\">" + children.joined() + "</\(kind)>"
    }
}
