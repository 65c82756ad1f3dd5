import Testing
@testable import AccessoryCore

/// Product images from the app's manifest reach the request pickers read, and an
/// image the manifest does not declare is refused like an undeclared descriptor value.
@Suite struct PickerProductImageTests {
    static let front = "/usr/share/accessoryd/images/acme/front.png"
    static let back = "/usr/share/accessoryd/images/acme/back.png"
    static var acme: AppManifest {
        var manifest = AuthorizationWorld.acme
        manifest.productImages = [front, back]
        return manifest
    }

    @Test func itemsGetTheImageTheyNameOrTheManifestsFirst() throws {
        var w = AuthorizationWorld()
        try w.show(Self.acme, items: [
            PickerDisplayItem(name: "Acme sensor", descriptor: AuthorizationWorld.sensor),
            PickerDisplayItem(name: "Acme camera", productImagePath: Self.back, descriptor: AuthorizationWorld.camera),
        ])
        let request = try #require(w.core.requests[1])
        #expect(request.itemNames == ["Acme sensor", "Acme camera"])
        #expect(request.itemImages == [Self.front, Self.back])
        w.hear(12)
        let candidate = try #require(w.core.requests[1]?.visibleCandidates.first)
        #expect(w.core.requests[1]?.image(of: candidate) == Self.front)
    }

    @Test func anUndeclaredImageIsRefused() {
        var w = AuthorizationWorld()
        #expect(throws: AccessorySetupError.invalidRequest(.undeclaredProductImage("/home/me/cat.png"))) {
            try w.show(Self.acme, items: [
                PickerDisplayItem(name: "Acme sensor", productImagePath: "/home/me/cat.png", descriptor: AuthorizationWorld.sensor),
            ])
        }
        #expect(w.core.requests[1] == nil)
    }

    @Test func aShownCandidatesImageMustBeDeclaredToo() throws {
        var w = AuthorizationWorld()
        try w.show(Self.acme, settings: PickerDisplaySettings(filterDiscoveryResults: true))
        w.hear(12)
        #expect(throws: AccessorySetupError.invalidRequest(.undeclaredProductImage("/etc/shadow"))) {
            try w.decide { c throws(AccessorySetupError) in
                try c.updatePicker(session: 1, manifest: Self.acme, shown: [(1, "Porch sensor", "/etc/shadow")])
            }
        }
        try w.decide { c throws(AccessorySetupError) in
            try c.updatePicker(session: 1, manifest: Self.acme, shown: [(1, "Porch sensor", Self.back)])
        }
        let request = try #require(w.core.requests[1])
        #expect(request.visibleCandidates.map { request.image(of: $0) } == [Self.back])
    }

    @Test func secondsLeftCountsDownToTheDiscoveryDeadline() throws {
        var w = AuthorizationWorld()
        try w.show(Self.acme, settings: PickerDisplaySettings(discoveryTimeout: .seconds(30)))
        #expect(w.core.requests[1]?.secondsLeft(at: w.now) == 30)
        w.clock.advance(by: .milliseconds(10_500))
        #expect(w.core.requests[1]?.secondsLeft(at: w.now) == 20)
        try w.show(session: 2, AuthorizationWorld.globex, items: [PickerDisplayItem(name: "Thermo", descriptor: AuthorizationWorld.thermometer)],
                   settings: PickerDisplaySettings(discoveryTimeout: .unbounded))
        #expect(w.core.requests[2]?.secondsLeft(at: w.now) == nil)
    }
}
