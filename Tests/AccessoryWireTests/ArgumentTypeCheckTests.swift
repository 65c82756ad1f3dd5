import AccessoryWire
import Testing

/// The check behind `InvalidArgs`: a call's signature against its method's declaration.
@Suite struct ArgumentTypeCheckTests {
    @Test func aSignatureIsCutIntoCompleteTypes() {
        #expect(BusType.completeTypes(in: "") == [])
        #expect(BusType.completeTypes(in: "oa{ss}u") == ["o", "a{ss}", "u"])
        #expect(BusType.completeTypes(in: "a(ssa{ss}asas)a{ss}") == ["a(ssa{ss}asas)", "a{ss}"])
        #expect(BusType.completeTypes(in: "aaya(i(ss))h") == ["aay", "a(i(ss))", "h"])
        // Malformed (the bus would not pass it on): the rest is kept, not lost.
        #expect(BusType.completeTypes(in: "s(uu") == ["s", "(uu"])
    }

    @Test func everyDeclaredMethodAcceptsItsOwnSignature() {
        for interface in BusObjects.apiInterfaces + [FreedesktopInterfaces.properties] {
            for method in interface.methods {
                #expect(method.argumentMismatch(received: method.inputSignature) == nil, "\(interface.name).\(method.name)")
            }
        }
    }

    @Test func theFirstArgumentThatDiffersIsNamedWithBothTypes() {
        #expect(Session1.joinHotspot.argumentMismatch(received: "ss") == "argument 1 (accessory): expected 'o', got 's'")
        #expect(Session1.joinHotspot.argumentMismatch(received: "ou") == "argument 2 (passphrase): expected 's', got 'u'")
        #expect(Session1.joinHotspot.argumentMismatch(received: "o") == "argument 2 (passphrase): expected 's', got nothing")
        #expect(Session1.joinHotspot.argumentMismatch(received: "osa{ss}") == "argument 3: JoinHotspot takes 2 arguments ('os'), got 'a{ss}' more")
        #expect(Manager1.openSession.argumentMismatch(received: "su") == "argument 1: OpenSession takes no arguments, got 'su' more")
        #expect(FreedesktopInterfaces.get.argumentMismatch(received: "s") == "argument 2: expected 's', got nothing")
    }
}
