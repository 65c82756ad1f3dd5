import AccessoryCore
import AccessoryWire
import Testing

/// Each interface's methods are listed once, as its `Method` enum, and the
/// daemon's handlers switch over it with no default: a method declared and
/// not handled does not build. What the compiler cannot see is checked here:
/// that introspection offers exactly those methods, that a call's member
/// finds its case, and that every event the daemon signals has its declared signal.
@Suite struct DeclaredMembersTests {
    static let methods: [(BusInterface, [String])] = [
        (Manager1.interface, Manager1.Method.allCases.map(\.declaration.name)),
        (Session1.interface, Session1.Method.allCases.map(\.declaration.name)),
        (Admin1.interface, Admin1.Method.allCases.map(\.declaration.name)),
        (PickerAgent1.interface, PickerAgent1.Method.allCases.map(\.declaration.name)),
    ]

    @Test func introspectionOffersExactlyEachInterfacesCases() {
        let xml = IntrospectionXML.document(BusObjects.apiInterfaces)
        for (interface, names) in Self.methods {
            #expect(Self.methodNames(in: xml, interface: interface.name) == names, "\(interface.name)")
            #expect(Set(names).count == names.count, "\(interface.name) names a method twice")
        }
        #expect(Self.methodNames(in: xml, interface: Accessory1.interface.name).isEmpty)
    }

    @Test func everyDeclaredMemberFindsItsCaseAndNoOtherDoes() {
        for method in Manager1.Method.allCases { #expect(Manager1.Method(member: method.declaration.name) == method) }
        for method in Session1.Method.allCases { #expect(Session1.Method(member: method.declaration.name) == method) }
        for method in Admin1.Method.allCases { #expect(Admin1.Method(member: method.declaration.name) == method) }
        #expect(Manager1.Method(member: "Activate") == nil)
        #expect(Session1.Method(member: "OpenSession") == nil)
        #expect(Admin1.Method(member: nil) == nil)
    }

    @Test func everySignalledEventHasItsDeclaredSignal() {
        for type in AccessoryEventType.signalled {
            let declared = Session1.signal(for: type)
            #expect(declared?.name == type.signalName)
            #expect(declared.map { Session1.interface.signals.contains($0) } == true, "\(type)")
        }
        #expect(Session1.signal(for: .unknown) == nil)
        #expect(Session1.signal(for: .serviceRestarted) == nil)
        // Every declared signal is an event's, but the service's own HotspotLeft.
        let fromEvents = Set(AccessoryEventType.signalled.compactMap { Session1.signal(for: $0)?.name })
        #expect(Set(Session1.interface.signals.map(\.name)).subtracting(fromEvents) == [Session1.hotspotLeft.name])
    }

    /// The `<method name=…>` of one interface of an introspection document, in order.
    static func methodNames(in xml: String, interface: String) -> [String] {
        guard let start = xml.range(of: "<interface name=\"\(interface)\">") else { return [] }
        let body = xml[start.upperBound...]
        let section = body.range(of: "</interface>").map { body[..<$0.lowerBound] } ?? body
        return section.components(separatedBy: "<method name=\"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
    }
}
