import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Foundation
import Testing
@testable import AccessoryDaemon

/// What an outside client found (issue 24), each as the client sees it:
/// real accessoryd service, real dbus-daemon, apps as Python clients under
/// their own uids, the administrator as the real accessoryctl.
/// Apps that call as any app may are the test client; Python on purpose where
/// the outside client sends what AccessoryWire's typed encoders would not (a
/// noncharacter, a file descriptor where none is declared, 100,000-byte
/// names, an empty item list), with another D-Bus library's marshalling.
@Suite(.serialized) struct OutsideClientTests {
    static let hostile = HostileClientTests.hostile
    static let good = HostileClientTests.good
    static let attempt = HostileClientTests.attempt

    static let porch = BluetoothDeviceIdentifier(address: HardwareAddress("C0:FF:EE:00:00:50")!, addressType: .public)

    /// The hostile app migrates the porch sensor (which may be another
    /// app's) and one nobody holds, and prints every signal it gets, then
    /// what it holds (Activate's list).
    static let migrateBoth = [
        ["session"], ["explain"], ["migrate", "Old porch", "C0:FF:EE:00:00:50", "", "and", "Old shed", "C0:FF:EE:00:00:51", ""],
        ["until", "PickerDidDismiss"], ["call", "session", BusNames.session, "Activate"],
    ]

    /// How many accessories Activate's list (the last line) names.
    static func holds(_ output: String?) -> Int? {
        guard let last = output?.split(separator: "\n").last, last.hasPrefix("["), last.hasSuffix("]") else { return nil }
        return last == "[]" ? 0 : last.split(separator: ",").count
    }

    /// Item 1: the hostile app's whole view of its migration is the same
    /// whether or not another app holds one of its items. The administrator
    /// who tries to approve where another app holds an item is refused,
    /// told which and whose; nothing reaches the app until a decision, and
    /// the decision (a denial) reaches it as it would without the other app.
    @Test func aMigrationLooksTheSameToTheAppWhetherOrNotAnotherAppHoldsAnItem() throws {
        var views: [Bool: String] = [:]
        for held in [true, false] {
            let theirs = Grant(accessory: AccessoryID(0xA1), app: Self.good.app, displayName: "Porch", state: .authorized,
                               bluetooth: Self.porch)
            let h = try ServiceHarness(manifests: [Self.hostile, Self.good], grants: held ? [theirs] : [])
            let client = try h.startClient(Self.migrateBoth, as: "daemon")
            h.pump { !h.service.center.requests.isEmpty || !client.0.isRunning }
            let number = try #require(h.service.center.requests.keys.first)
            if held {
                let approval = try h.accessoryctl(["approve", "\(number)", "0"])
                #expect(approval.status != 0)
                #expect(approval.err.contains("\"Old porch\" (C0:FF:EE:00:00:50/public) is sensor-logger's accessory 00000000000000a1"), "\(approval.err)")
                #expect(approval.err.contains("nothing was granted"))
                #expect(!approval.out.contains("approved"))
                #expect(h.service.center.grants(of: Self.hostile.app).isEmpty)
            }
            #expect(try h.accessoryctl(["deny", "\(number)"]).status == 0)
            views[held] = h.finish(client)
        }
        #expect(views[true] == views[false], "with: \(views[true] ?? "")\nwithout: \(views[false] ?? "")")
        #expect(views[false]?.contains("signal PickerDidDismiss") == true)
        #expect(Self.holds(views[false]) == 0)
    }

    /// Item 1, the administrator's side: `approve` says item by item what
    /// was granted and what was skipped and why, and never prints the
    /// accessories' root as if it were an accessory.
    @Test func approvingAMigrationPrintsWhatWasGrantedAndWhatWasSkipped() throws {
        let mine = Grant(accessory: AccessoryID(0xB1), app: Self.hostile.app, displayName: "Porch", state: .authorized,
                         bluetooth: Self.porch)
        let h = try ServiceHarness(manifests: [Self.hostile], grants: [mine])
        let client = try h.startClient(Self.migrateBoth, as: "daemon")
        h.pump { !h.service.center.requests.isEmpty || !client.0.isRunning }
        let number = try #require(h.service.center.requests.keys.first)
        let approval = try h.accessoryctl(["approve", "\(number)", "0"])
        #expect(approval.status == 0, "\(approval.err)")
        let lines = approval.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(approval.out)")
        #expect(lines.first == "approved: migration request \(number): 1 of 2 item(s) granted")
        #expect(lines.contains("  skipped: \"Old porch\" (C0:FF:EE:00:00:50/public): already accessory 00000000000000b1 of hostile"))
        #expect(lines.contains { $0.hasPrefix("  granted: \"Old shed\" (C0:FF:EE:00:00:51/public) as accessory ") })
        #expect(!approval.out.contains("(/org/accessoryagent/accessory)"))
        #expect(Self.holds(h.finish(client)) == 2)
    }

    /// Item 2: past `RequestBurst`, requests are refused naming the limit
    /// (and when the next is allowed); the refusals make one journal line.
    @Test func anAppAskingTooFastIsRefusedNamingTheLimitAndLoggedOnce() throws {
        let h = try ServiceHarness(manifests: [Self.hostile])
        // One a minute past the burst, so how fast the client runs changes nothing; one fold for the whole test.
        h.service.limits.requestBurst = 5
        h.service.limits.requestsPerMinute = 1
        h.service.logFold = LogFold(window: .seconds(3600))
        let said = try h.runClient([["session"], ["explain"]] + (0..<12).flatMap { _ in
            [["show", "Sensor", "ServiceUUID=180F", "NameSubstring=Porch"], ["call", "session", BusNames.session, "DismissPicker"]]
        }, as: "daemon")
        let lines = said.split(separator: "\n").map(String.init)
        // OpenSession took one; four pickers, then refusals (every other line answers a show).
        #expect(lines.count == 24, "\(said)")
        #expect(lines.enumerated().filter { $0.offset % 2 == 0 && $0.element == "ok" }.count == 4, "\(said)")
        let refused = lines.filter { $0.contains("over the limit RequestsPerMinute=1;") }
        #expect(refused.count == 8, "\(said)")
        #expect(refused.allSatisfy { $0.contains("org.accessoryagent.Error.invalidRequest") && $0.contains("RequestBurst") })
        #expect(h.log.entries.filter { $0.message.hasPrefix("Refused requests of hostile") }.count == 1)
        // Every accepted picker's request and withdrawal is in the log: audit lines are never folded.
        #expect(h.log.entries.filter { $0.message.contains("withdrawn by the app") }.count == 4)
    }

    /// Item 3: the refusal at `SessionsPerApp` says which sessions are
    /// persistent, when they end, and how; `EndPersistentSessions` ends them.
    @Test func leakedPersistentSessionsAreNamedAndTheAppCanEndThem() throws {
        let h = try ServiceHarness(manifests: [Self.hostile])
        let open = ["call", BusNames.root, BusNames.manager, "OpenPersistentSession"]
        let said = try h.runClient(Array(repeating: open, count: 16) + [
            ["explain"], open, ["call", BusNames.root, BusNames.manager, "EndPersistentSessions"],
            ["call", BusNames.root, BusNames.manager, "OpenSession"],
        ], as: "daemon")
        let lines = said.split(separator: "\n").map(String.init)
        #expect(lines.count == 19, "\(said)")
        #expect(lines.prefix(16) == ArraySlice((1...16).map { "/org/accessoryagent/session/\($0)" }))
        #expect(lines.dropFirst(16).first?.hasPrefix("error org.accessoryagent.Error.invalidRequest hostile holds 16 sessions, 16 of them persistent (/org/accessoryagent/session/1, ") == true, "\(said)")
        #expect(lines.dropFirst(17).first == "16", "ended 16")
        #expect(lines.last?.hasPrefix("/org/accessoryagent/session/") == true, "then a session again: \(said)")
    }

    /// The whole refusal text.
    @Test func theSessionLimitRefusalSaysWhenAndHow() throws {
        let h = try ServiceHarness(manifests: [Self.hostile])
        h.service.limits.sessionsPerApp = 1
        let open = ["call", BusNames.root, BusNames.manager, "OpenPersistentSession"]
        let answers = try h.runClient([open, ["explain"], open], as: "daemon").split(separator: "\n", maxSplits: 1)
        #expect(answers.first == "/org/accessoryagent/session/1")
        let refusal = "error org.accessoryagent.Error.invalidRequest "
        // The rest of the output: the refusal's message, and the line's end.
        let said = answers.last.map { $0.hasPrefix(refusal) ? String($0.dropFirst(refusal.count)) : String($0) } ?? ""
        #expect(said.hasPrefix("hostile holds 1 sessions, 1 of them persistent (/org/accessoryagent/session/1); "
            + "a persistent session ends after 10 minutes without a call, the first of these within 6"), "\(said)")
        #expect(said.hasSuffix(" s; end them now with Manager1.EndPersistentSessions or Session1.Invalidate on each: "
            + "over the limit SessionsPerApp=1\n"), "\(said)")
    }

    /// Item 4: names with a C1 control, or nothing visible, are refused as
    /// names; a noncharacter is named, not "expected a string argument".
    @Test func namesThatShowNothingOrActAreRefusedAndANoncharacterIsNamed() throws {
        let h = try ServiceHarness(manifests: [Self.hostile])
        let said = try h.run(Self.attempt + """
            s = call(manager, "org.accessoryagent.Manager1", "OpenSession")
            call(s, S, "Activate")
            for label, name in [("c1-85", "Lamp\\u0085x"), ("c1-9b", "Lamp\\u009b2J"), ("spaces", "   "),
                                ("zwsp", "\\u200b"), ("rlo", "\\u202e"), ("ffff", "Lamp\\uffff")]:
                attempt(label, s, S, "ShowPicker", [item(name=name)], no_settings)
                attempt("dismiss", s, S, "DismissPicker")
            """, as: "daemon")
        let lines = said.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("dismiss") }
        let invalid = "org.accessoryagent.Error.invalidRequest"
        #expect(lines == [
            "c1-85 \(invalid) a display item's name holds control characters: \"Lamp\\x85x\"; a name may hold none",
            "c1-9b \(invalid) a display item's name holds control characters: \"Lamp\\x9B2J\"; a name may hold none",
            "spaces \(invalid) a display item's name \"   \" has no visible character (only spaces, zero-width or bidi marks); a name needs one",
            "zwsp \(invalid) a display item's name \"\\u{200B}\" has no visible character (only spaces, zero-width or bidi marks); a name needs one",
            "rlo \(invalid) a display item's name \"\\u{202E}\" has no visible character (only spaces, zero-width or bidi marks); a name needs one",
            "ffff \(invalid) \(BusMessage.notUTF8)".prefix(("ffff \(invalid) ").count + 160).description,
        ], "\(said)")
    }

    /// Item 5: Properties errors quote the caller's names cut; the root
    /// answers GetAll with {} and Get with InvalidArgs, and says so.
    @Test func propertiesErrorsAreCutAndTheRootAnswersAsDocumented() throws {
        let h = try ServiceHarness(manifests: [Self.hostile])
        let said = try h.run("""
            P = "org.freedesktop.DBus.Properties"
            s = call(manager, "org.accessoryagent.Manager1", "OpenSession")
            def show(label, path, method, *args):
                try:
                    print(label, "ok", text(getattr(dbus.Interface(bus.get_object("org.accessoryagent", path, introspect=False), P), method)(*args)))
                except dbus.DBusException as e:
                    print(label, e.get_dbus_name(), len(e.get_dbus_message()))
            show("session-interface", s, "GetAll", "x" * 100000)
            show("session-property", s, "Get", "org.accessoryagent.Session1", "y" * 100000)
            show("root-getall", manager, "GetAll", "org.accessoryagent.Manager1")
            show("root-get", manager, "Get", "org.accessoryagent.Manager1", "Version")
            xml = dbus.Interface(bus.get_object("org.accessoryagent", manager, introspect=False), "org.freedesktop.DBus.Introspectable").Introspect()
            print("introspection", "org.freedesktop.DBus.Properties" in xml, "org.freedesktop.DBus.Peer" in xml)
            """, as: "daemon")
        let lines = said.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(said)")
        for line in lines.prefix(2) {
            let parts = line.split(separator: " ")
            #expect(parts[1] == "org.freedesktop.DBus.Error.InvalidArgs" && Int(parts[2])! < 300, "\(line)")
        }
        #expect(lines[2] == "root-getall ok {}")
        #expect(lines[3].hasPrefix("root-get org.freedesktop.DBus.Error.InvalidArgs "))
        #expect(lines[4] == "introspection True True")
    }

    /// Item 6: messages a developer can act on.
    @Test func refusalsNameTheBoundTheKeyAndTheMethod() throws {
        let h = try ServiceHarness(manifests: [Self.hostile])
        let said = try h.run(Self.attempt + """
            s = call(manager, "org.accessoryagent.Manager1", "OpenSession")
            call(s, S, "Activate")
            attempt("none", s, S, "ShowPicker", dbus.Array([], signature="(ssa{ss}asas)"), no_settings)
            attempt("mask", s, S, "ShowPicker", [item(descriptor={"ServiceUUID": "180F", "NameSubstring": "Porch", "CompanyIdentifier": "76", "ManufacturerDataMask": "ff"})], no_settings)
            attempt("dismiss", s, S, "DismissPicker")
            import os
            r, w = os.pipe()
            attempt("fd", s, S, "Activate", dbus.types.UnixFd(r))
            """, as: "daemon")
        let lines = said.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("dismiss") }
        #expect(lines == [
            "none org.accessoryagent.Error.invalidRequest display items: none given; give 1 to 64 (the limit DisplayItems=64)",
            "mask org.accessoryagent.Error.invalidRequest invalid descriptor: ManufacturerDataMask is given without ManufacturerDataBlob",
            "fd org.freedesktop.DBus.Error.InvalidArgs argument 1: Activate takes no arguments, got 'h' more",
        ], "\(said)")
    }
}
