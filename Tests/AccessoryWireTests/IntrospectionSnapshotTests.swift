import AccessoryWire
import Testing

/// What `Introspect` answered on each object before the service became one
/// handler per interface, kept byte for byte: the contract on the bus does
/// not change when the code behind it is rearranged. A deliberate change of
/// the API changes these texts in the same commit (as the product images and
/// the seconds left did: Admin1's rows, PickerAgent1's RequestAdded and CandidateAdded; and the
/// pairing prompts: Admin1's ListPairingQuestions and AnswerPairing, PickerAgent1's PairingQuestion*).
@Suite struct IntrospectionSnapshotTests {
    @Test func root() { #expect(IntrospectionXML.root == Self.root) }
    @Test func session() { #expect(IntrospectionXML.session == Self.session) }
    @Test func accessory() { #expect(IntrospectionXML.accessory == Self.accessory) }
    @Test func agent() { #expect(IntrospectionXML.document([PickerAgent1.interface]) == Self.agent) }

    static let root = #"""
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>
          <interface name="org.accessoryagent.Manager1">
            <method name="OpenSession"><arg name="session" type="o" direction="out"/></method>
            <method name="OpenPersistentSession"><arg name="session" type="o" direction="out"/></method>
            <method name="EndPersistentSessions"><arg name="ended" type="u" direction="out"/></method>
          </interface>
          <interface name="org.accessoryagent.Admin1">
            <method name="ListRequests"><arg name="requests" type="a(ussasuasi)" direction="out"/></method>
            <method name="ListCandidates"><arg name="request" type="u" direction="in"/><arg name="candidates" type="a(ussssis)" direction="out"/></method>
            <method name="Approve"><arg name="request" type="u" direction="in"/><arg name="candidate" type="u" direction="in"/><arg name="name" type="s" direction="in"/><arg name="accessory" type="o" direction="out"/></method>
            <method name="Deny"><arg name="request" type="u" direction="in"/></method>
            <method name="ListAccessories"><arg name="accessories" type="a(sssssbi)" direction="out"/></method>
            <method name="RemoveAccessory"><arg name="id" type="s" direction="in"/></method>
            <method name="RenameAccessory"><arg name="id" type="s" direction="in"/><arg name="name" type="s" direction="in"/></method>
            <method name="Allow"><arg name="app" type="s" direction="in"/><arg name="seconds" type="u" direction="in"/></method>
            <method name="Disallow"><arg name="app" type="s" direction="in"/></method>
            <method name="RegisterAgent"><arg name="agent" type="o" direction="in"/></method>
            <method name="UnregisterAgent"><arg name="agent" type="o" direction="in"/></method>
            <method name="ListPairingQuestions"><arg name="questions" type="a(uussssi)" direction="out"/></method>
            <method name="AnswerPairing"><arg name="request" type="u" direction="in"/><arg name="prompt" type="u" direction="in"/><arg name="answer" type="s" direction="in"/></method>
          </interface>
          <interface name="org.freedesktop.DBus.ObjectManager">
            <method name="GetManagedObjects"><arg type="a{oa{sa{sv}}}" direction="out"/></method>
            <signal name="InterfacesAdded"><arg type="o"/><arg type="a{sa{sv}}"/></signal>
            <signal name="InterfacesRemoved"><arg type="o"/><arg type="as"/></signal>
          </interface>
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="out"/></method>
            <method name="GetAll"><arg type="s" direction="in"/><arg type="a{sv}" direction="out"/></method>
            <signal name="PropertiesChanged"><arg type="s"/><arg type="a{sv}"/><arg type="as"/></signal>
          </interface>
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect"><arg name="xml" type="s" direction="out"/></method>
          </interface>
          <interface name="org.freedesktop.DBus.Peer">
            <method name="Ping"/>
            <method name="GetMachineId"><arg name="machine_uuid" type="s" direction="out"/></method>
          </interface>
        </node>

        """#

    static let session = #"""
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>
          <interface name="org.accessoryagent.Session1">
            <method name="Activate"><arg name="accessories" type="ao" direction="out"/></method>
            <method name="Invalidate"/>
            <method name="ShowPicker"><arg name="items" type="a(ssa{ss}asas)" direction="in"/><arg name="settings" type="a{ss}" direction="in"/></method>
            <method name="UpdatePicker"><arg name="shown" type="a(uss)" direction="in"/></method>
            <method name="FinishPickerDiscovery"/>
            <method name="DismissPicker"/>
            <method name="FinishAuthorization"><arg name="accessory" type="o" direction="in"/><arg name="settings" type="a{ss}" direction="in"/></method>
            <method name="FailAuthorization"><arg name="accessory" type="o" direction="in"/></method>
            <method name="UpdateAuthorization"><arg name="accessory" type="o" direction="in"/><arg name="descriptor" type="a{ss}" direction="in"/></method>
            <method name="RemoveAccessory"><arg name="accessory" type="o" direction="in"/></method>
            <method name="RenameAccessory"><arg name="accessory" type="o" direction="in"/><arg name="name" type="s" direction="in"/><arg name="options" type="as" direction="in"/></method>
            <method name="Migrate"><arg name="items" type="a(sssa{ss})" direction="in"/></method>
            <method name="OpenBluetoothChannel"><arg name="accessory" type="o" direction="in"/><arg name="psm" type="q" direction="in"/><arg name="socket" type="h" direction="out"/></method>
            <method name="JoinHotspot"><arg name="accessory" type="o" direction="in"/><arg name="passphrase" type="s" direction="in"/><arg name="result" type="s" direction="out"/><arg name="interface" type="s" direction="out"/><arg name="address" type="s" direction="out"/></method>
            <method name="LeaveHotspot"><arg name="accessory" type="o" direction="in"/></method>
            <method name="TakeEvents"><arg name="events" type="a(sa{ss})" direction="out"/></method>
            <method name="ObservePresence"><arg name="accessory" type="o" direction="in"/><arg name="observe" type="b" direction="in"/></method>
            <signal name="Activated"><arg name="accessories" type="ao"/></signal>
            <signal name="Invalidated"/>
            <signal name="PickerDidPresent"/>
            <signal name="AccessoryDiscovered"><arg name="candidate" type="u"/><arg name="name" type="s"/><arg name="identity" type="s"/><arg name="rssi" type="i"/><arg name="advertisement" type="ay"/></signal>
            <signal name="AccessoryAdded"><arg name="accessory" type="o"/></signal>
            <signal name="AccessoryChanged"><arg name="accessory" type="o"/></signal>
            <signal name="AccessoryRemoved"><arg name="accessory" type="o"/></signal>
            <signal name="PickerSetupRename"><arg name="accessory" type="o"/></signal>
            <signal name="PickerSetupPairing"><arg name="accessory" type="o"/></signal>
            <signal name="PickerSetupBridging"><arg name="accessory" type="o"/></signal>
            <signal name="PickerSetupFailed"><arg name="error" type="s"/><arg name="message" type="s"/></signal>
            <signal name="PickerDidDismiss"><arg name="error" type="s"/><arg name="message" type="s"/></signal>
            <signal name="MigrationComplete"/>
            <signal name="HotspotLeft"><arg name="accessory" type="o"/><arg name="reason" type="s"/></signal>
            <property name="App" type="s" access="read"><annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/></property>
            <property name="State" type="s" access="read"/>
          </interface>
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="out"/></method>
            <method name="GetAll"><arg type="s" direction="in"/><arg type="a{sv}" direction="out"/></method>
            <signal name="PropertiesChanged"><arg type="s"/><arg type="a{sv}"/><arg type="as"/></signal>
          </interface>
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect"><arg name="xml" type="s" direction="out"/></method>
          </interface>
          <interface name="org.freedesktop.DBus.Peer">
            <method name="Ping"/>
            <method name="GetMachineId"><arg name="machine_uuid" type="s" direction="out"/></method>
          </interface>
        </node>

        """#

    static let accessory = #"""
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>
          <interface name="org.accessoryagent.Accessory1">
            <signal name="Advertisement"><arg name="rssi" type="i"/><arg name="data" type="ay"/></signal>
            <property name="DisplayName" type="s" access="read"/>
            <property name="State" type="s" access="read"/>
            <property name="App" type="s" access="read"><annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/></property>
            <property name="BluetoothAddress" type="s" access="read"><annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/></property>
            <property name="BluetoothAddressType" type="s" access="read"><annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/></property>
            <property name="SSID" type="ay" access="read"/>
            <property name="Descriptor" type="a{ss}" access="read"/>
            <property name="BridgingIdentifier" type="s" access="read"/>
            <property name="Present" type="b" access="read"/>
            <property name="RSSI" type="i" access="read"><annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="false"/></property>
          </interface>
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="out"/></method>
            <method name="GetAll"><arg type="s" direction="in"/><arg type="a{sv}" direction="out"/></method>
            <signal name="PropertiesChanged"><arg type="s"/><arg type="a{sv}"/><arg type="as"/></signal>
          </interface>
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect"><arg name="xml" type="s" direction="out"/></method>
          </interface>
          <interface name="org.freedesktop.DBus.Peer">
            <method name="Ping"/>
            <method name="GetMachineId"><arg name="machine_uuid" type="s" direction="out"/></method>
          </interface>
        </node>

        """#

    static let agent = #"""
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>
          <interface name="org.accessoryagent.PickerAgent1">
            <method name="RequestAdded"><arg name="request" type="u" direction="in"/><arg name="app" type="s" direction="in"/><arg name="items" type="as" direction="in"/><arg name="images" type="as" direction="in"/></method>
            <method name="CandidateAdded"><arg name="request" type="u" direction="in"/><arg name="candidate" type="u" direction="in"/><arg name="item" type="s" direction="in"/><arg name="name" type="s" direction="in"/><arg name="identity" type="s" direction="in"/><arg name="rssi" type="i" direction="in"/><arg name="image" type="s" direction="in"/></method>
            <method name="RequestEnded"><arg name="request" type="u" direction="in"/><arg name="outcome" type="s" direction="in"/></method>
            <method name="Release"/>
            <method name="PairingQuestion"><arg name="request" type="u" direction="in"/><arg name="prompt" type="u" direction="in"/><arg name="kind" type="s" direction="in"/><arg name="number" type="s" direction="in"/></method>
            <method name="PairingQuestionWithdrawn"><arg name="request" type="u" direction="in"/><arg name="prompt" type="u" direction="in"/></method>
          </interface>
        </node>

        """#
}
