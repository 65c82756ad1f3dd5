/// The introspection data `busctl introspect` shows; kept beside the code
/// that implements it.
enum Introspection {
    static let header = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        """

    static let standard = """
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect"><arg name="xml" type="s" direction="out"/></method>
          </interface>
        """

    static let manager = header + """

        <node>
          <interface name="org.accessoryagent.Manager1">
            <method name="OpenSession"><arg name="session" type="o" direction="out"/></method>
          </interface>
        \(standard)
        </node>

        """

    static let session = header + """

        <node>
          <interface name="org.accessoryagent.Session1">
            <method name="Activate"><arg name="accessories" type="ao" direction="out"/></method>
            <method name="Invalidate"/>
            <signal name="Activated"><arg name="accessories" type="ao"/></signal>
            <signal name="Invalidated"/>
            <property name="App" type="s" access="read"/>
            <property name="State" type="s" access="read"/>
          </interface>
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="out"/></method>
            <method name="GetAll"><arg type="s" direction="in"/><arg type="a{sv}" direction="out"/></method>
          </interface>
        \(standard)
        </node>

        """
}
