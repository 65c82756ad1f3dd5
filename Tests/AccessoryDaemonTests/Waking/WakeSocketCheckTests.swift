import AccessoryCore
import AccessoryPlatform
import Foundation
import Glibc
import Testing
import TestSupport
@testable import AccessoryDaemon

/// `WakeSocketCheck` reads what it needs with the calls and types of
/// systemd's D-Bus API (org.freedesktop.systemd1(5): `LoadUnit`, and
/// `Unit.LoadState`/`Triggers`, `Socket.Accept`/`Listen`, `Service.User`),
/// here answered by a stand-in in the test's own process, on a private bus.
/// systemd itself answers them in the system tier; this pins the decoding (a(ss) in a variant, the
/// chain of calls, a unit that does not exist) and that nothing waits.
@Suite(.serialized) struct WakeSocketCheckTests {
    /// A property value as systemd's API types it.
    enum Value {
        case string(String)
        case strings([String])
        case boolean(Bool)
        /// `a(ss)`: a socket's `Listen`.
        case pairs([(String, String)])
    }

    /// The units the stand-in knows, by interface and property.
    static let units: [String: [String: [String: Value]]] = [
        "acme-wake.socket": [
            "org.freedesktop.systemd1.Unit": ["LoadState": .string("loaded"), "Triggers": .strings(["acme-wake.service"])],
            "org.freedesktop.systemd1.Socket": ["Accept": .boolean(false), "Listen": .pairs([("Stream", "/run/acme/wake.sock")])],
        ],
        "acme-wake.service": [
            "org.freedesktop.systemd1.Unit": ["LoadState": .string("loaded")],
            "org.freedesktop.systemd1.Service": ["User": .string("acmelog")],
        ],
    ]
    static let unitPrefix = "/org/freedesktop/systemd1/unit/"

    /// systemd's escaping of a unit name in its object path.
    static func path(of unit: String) -> String {
        unitPrefix + unit.unicodeScalars.map {
            $0.properties.isAlphabetic && $0.isASCII || ("0"..."9").contains($0) ? String($0) : "_" + String(format: "%02x", $0.value)
        }.joined()
    }

    /// systemd's `LoadUnit` and `Properties.Get`, served on the test's own
    /// loop by a connection of its own under systemd's name: an answer can
    /// only come if `WakeSocketCheck` leaves the loop free while it waits.
    static func serveStandIn(_ connection: BusConnection) throws {
        try connection.requestName("org.freedesktop.systemd1")
        var loaded = units
        try connection.serve(path: "/org/freedesktop/systemd1") { call, connection in
            guard call.interface == "org.freedesktop.systemd1.Manager", call.member == "LoadUnit",
                  let name = try? call.readString() else { return nil }
            // systemd loads any name: one without a file is "not-found".
            if loaded[name] == nil { loaded[name] = ["org.freedesktop.systemd1.Unit": ["LoadState": .string("not-found")]] }
            return connection.reply(to: call).map { .reply($0.append(objectPath: Self.path(of: name))) }
        }
        try connection.serve(path: String(unitPrefix.dropLast()), subtree: true) { call, connection in
            guard call.interface == "org.freedesktop.DBus.Properties", call.member == "Get",
                  let interface = try? call.readString(), let property = try? call.readString(),
                  let unit = loaded.first(where: { Self.path(of: $0.key) == call.path }),
                  let value = unit.value[interface]?[property], let reply = connection.reply(to: call) else { return nil }
            switch value {
            case .string(let text): reply.append(variant: .string(text))
            case .strings(let list): reply.append(variant: .strings(list))
            case .boolean(let flag): reply.append(variant: .bool(flag))
            case .pairs(let pairs):
                reply.container("v", "a(ss)") { variant in
                    variant.container("a", "(ss)") { array in
                        for (first, second) in pairs { array.container("r", "ss") { $0.append(first).append(second) } }
                    }
                }
            }
            return .reply(reply)
        }
    }

    func facts(of unit: String) throws -> Result<WakeSocketFacts, WakeSocketRefusal>? {
        let bus = try PrivateBus()
        let loop = try EventLoop(pingsWatchdog: false)
        let systemd = try BusConnection(address: bus.address, loop: loop)
        try Self.serveStandIn(systemd)
        let connection = try BusConnection(address: bus.address, loop: loop)
        var answer: Result<WakeSocketFacts, WakeSocketRefusal>?
        WakeSocketCheck(connection: connection).facts(of: unit) { answer = $0 }
        #expect(answer == nil, "the answer comes from the loop, never from inside the call")
        for _ in 0..<400 where answer == nil { _ = loop.runOnce(timeout: .milliseconds(25)) }
        return answer
    }

    @Test func readsTheSocketUnitAndItsServiceFromSystemd() throws {
        let answer = try facts(of: "acme-wake.socket")
        let facts = try #require(try answer?.get())
        #expect(facts == WakeSocketFacts(loadState: "loaded", listen: [("Stream", "/run/acme/wake.sock")], accept: false,
                                         triggers: ["acme-wake.service"], serviceUser: "acmelog"))
        let manifest = AppManifest(app: "acme", user: "acmelog", wakeSocket: "acme-wake.socket", supports: [.bluetooth])
        #expect(facts.verdict(for: manifest) == .success("/run/acme/wake.sock"))
    }

    @Test func aUnitThatDoesNotExistIsNotLoaded() throws {
        let answer = try facts(of: "gone.socket")
        let facts = try #require(try answer?.get())
        #expect(facts.loadState == "not-found")
        let manifest = AppManifest(app: "acme", user: "acmelog", wakeSocket: "gone.socket", supports: [.bluetooth])
        #expect(facts.verdict(for: manifest) == .failure(WakeSocketRefusal("gone.socket", "is not-found, not loaded (not installed?)")))
    }
}
