import AccessoryCore
import AccessoryPlatform
import Foundation
import Logging
import Testing
import TestSupport

@testable import AccessoryDaemon

/// The BlueZ back end's pure parts: bluetoothd's object paths and what its
/// errors mean for a pairing.
@Suite struct BluezPairingNamesTests {
    @Test func devicePathsAreBluetoothdsFormAndNothingElse() {
        let address = BluetoothAddress("C0:11:22:33:44:0a")!
        let path = BluezObjectPath.device(address, on: 0)
        #expect(path == "/org/bluez/hci0/dev_C0_11_22_33_44_0A")
        #expect(BluezObjectPath.device(path)?.controller == 0)
        #expect(BluezObjectPath.device(path)?.address == address)
        #expect(BluezObjectPath.device("/org/bluez/hci12/dev_C0_11_22_33_44_0A")?.controller == 12)
        for hostile in ["", "/", "/org/bluez/hci0", "/org/bluez/hci0/dev_C0_11_22_33_44", "/org/bluez/hci0/dev_c0_11_22_33_44_0a",
                        "/org/bluez/hci0/dev_C0_11_22_33_44_0A/service0001", "/org/bluez/hci/dev_C0_11_22_33_44_0A",
                        "/org/bluez/hci01/dev_C0_11_22_33_44_0A", "/org/bluez/hci99999999/dev_C0_11_22_33_44_0A",
                        "/org/bluez/hcix/dev_C0_11_22_33_44_0A", "/org/bluez/hci0/dev_C0_11_22_33_44_0G",
                        "/org/other/hci0/dev_C0_11_22_33_44_0A", "/org/bluez/hci0/dev_C0_11_22_33_44_0A_00"] {
            #expect(BluezObjectPath.device(hostile) == nil, "\(hostile)")
        }
    }

    @Test func pairErrorsMeanWhatBluezSaysTheyMean() {
        func mapped(_ name: String) -> PairingBackEndError { BluezPairingError.pairing(BusError(name: name, message: "x")) }
        #expect(mapped("org.bluez.Error.AuthenticationRejected") == .rejectedByAccessory)
        #expect(mapped("org.bluez.Error.AuthenticationFailed") == .authenticationFailed)
        #expect(mapped("org.bluez.Error.AuthenticationTimeout") == .timedOut)
        #expect(mapped("org.bluez.Error.AuthenticationCanceled") == .disconnected)
        #expect(mapped("org.bluez.Error.ConnectionAttemptFailed") == .notFound)
        #expect(mapped("org.bluez.Error.DoesNotExist") == .notFound)
        #expect(mapped("org.bluez.Error.AlreadyExists") == .other("bluetoothd holds a bond for it already; remove it there first"))
        #expect(mapped("org.bluez.Error.NotReady") == .other("the Bluetooth adapter is not powered"))
        #expect(mapped("org.freedesktop.DBus.Error.ServiceUnknown") == .other("bluetoothd is not running"))
        // Another peer's error name reaches the journal only as an excerpt, without its control characters.
        guard case .other(let text) = mapped("com.example.Odd\u{7}") else { Issue.record("not .other"); return }
        #expect(text.hasPrefix("bluetoothd: ") && !text.contains("\u{7}"))
        // A bond someone else made is never removed when the setup is abandoned.
        #expect(BluezPairingError.leftNoBondOfOurs(BusError(name: "org.bluez.Error.AlreadyExists", message: "")))
        #expect(!BluezPairingError.leftNoBondOfOurs(BusError(name: "org.bluez.Error.AuthenticationFailed", message: "")))
    }
}

/// The back end against a real dbus-daemon with a stand-in bluetoothd of
/// the test's own on it (the real bluetoothd is the lab's:
/// Tests/Lab/scenarios/bt-encryption-bluez). The stand-in answers as BlueZ
/// 5.66 does: RegisterAgent, Properties.Get for a known device, Pair
/// (prompting the caller's agent first when told to), Disconnect, RemoveDevice.
@Suite("Pairing through BlueZ's D-Bus API", .serialized)
final class BluezPairingBusTests {
    let bus: PrivateBus
    let scratch: ScratchDirectory
    let loop: EventLoop
    let connection: BusConnection
    let bluez: BusConnection
    let pairing: BluezPairing
    let device = BluetoothDeviceIdentifier(address: BluetoothAddress("C0:11:22:33:44:55")!, addressType: .public)
    var path: String { BluezObjectPath.device(device.address, on: 0) }
    static let pairedAtPath = "/org/bluez/hci0/dev_4A_11_22_33_44_55"

    var events: [PairingBackEndEvent] = []
    /// What the stand-in was called with, in order ("RegisterAgent NoInputNoOutput", "Pair", …).
    var calls: [String] = []
    /// How the stand-in answers Pair: after asking the agent this (member, arguments), or at once with this error.
    var pairPrompt: (member: String, build: (BusReply) -> Void)?
    var pairError: String?
    /// Whether bluetoothd knows the device before any discovery (Properties.Get answers).
    var known = true
    /// The agent's answer to the stand-in's prompt.
    var agentAnswer: Result<BusMessage, BusError>?

    init() throws {
        bus = try PrivateBus()
        scratch = try ScratchDirectory("bluez-pairing")
        loop = try EventLoop(pingsWatchdog: false)
        connection = try BusConnection(address: bus.address, loop: loop)
        bluez = try BusConnection(address: bus.address, loop: loop)
        try bluez.requestName("org.bluez")
        pairing = try BluezPairing.attached(to: connection, scheduler: loop, store: BondStore(directory: scratch.path("state")),
                                            logger: Logger(label: "test"), controllers: { [0] })
        pairing.report = { [unowned self] _, event in events.append(event) }
        pairing.bluetoothd(present: true)
        try bluez.serve(path: "/", subtree: true) { [unowned self] call, bus in standIn(call, bus) }
    }

    private func standIn(_ call: BusMessage, _ bus: BusConnection) -> BusConnection.MethodOutcome? {
        let member = call.member ?? ""
        switch member {
        case "RegisterAgent":
            _ = try? call.readObjectPath()
            calls.append("RegisterAgent \((try? call.readString()) ?? "")")
        case "RemoveDevice": calls.append("RemoveDevice \((try? call.readObjectPath()) ?? "")")
        default: calls.append(member)
        }
        switch member {
        case "Get" where !known:
            return .error(BusError(name: "org.freedesktop.DBus.Error.UnknownObject", message: "stand-in"))
        case "StartDiscovery":
            // As bluetoothd once the discovery hears the accessory.
            let path = path
            try? bus.emitSignal(path: "/", interface: "org.freedesktop.DBus.ObjectManager", member: "InterfacesAdded") {
                $0.append(objectPath: "/org/bluez/hci0/dev_00_00_00_00_00_09").container("a", "{sa{sv}}") { _ in }
            }
            try? bus.emitSignal(path: "/", interface: "org.freedesktop.DBus.ObjectManager", member: "InterfacesAdded") {
                $0.append(objectPath: path).container("a", "{sa{sv}}") { _ in }
            }
            return .reply(bus.reply(to: call)!)
        case "Get":
            return .reply(bus.reply(to: call)!.append(variant: .string(device.address.description)))
        case "GetManagedObjects":
            // The accessory under the private address it was paired at, and a stranger.
            let reply = bus.reply(to: call)!
            reply.container("a", "{oa{sa{sv}}}") { objects in
                for (object, address) in [(Self.pairedAtPath, device.address.description), ("/org/bluez/hci0/dev_00_00_00_00_00_09", "00:00:00:00:00:09")] {
                    objects.container("e", "oa{sa{sv}}") { entry in
                        entry.append(objectPath: object).container("a", "{sa{sv}}") { interfaces in
                            interfaces.container("e", "sa{sv}") { $0.append("org.freedesktop.DBus.Properties").container("a", "{sv}") { _ in } }
                            interfaces.container("e", "sa{sv}") { interface in
                                interface.append("org.bluez.Device1").container("a", "{sv}") { properties in
                                    properties.container("e", "sv") { $0.append("Paired").append(variant: .bool(true)) }
                                    properties.container("e", "sv") { $0.append("Address").append(variant: .string(address)) }
                                    properties.container("e", "sv") { $0.append("AddressType").append(variant: .string("public")) }
                                }
                            }
                        }
                    }
                }
            }
            return .reply(reply)
        case "Pair":
            if let pairError { return .error(BusError(name: pairError, message: "stand-in")) }
            guard let prompt = pairPrompt else { return .reply(bus.reply(to: call)!) }
            // As bluetoothd: the caller's agent is asked, and Pair answers after it.
            _ = try? bus.callAsync(destination: connection.uniqueName!, path: BluezPairing.agentPath, interface: "org.bluez.Agent1",
                               member: prompt.member, timeout: .seconds(20), autoStart: false, prompt.build) { [unowned self] answer in
                agentAnswer = answer
                if case .failure(let error) = answer {
                    bus.sendError(BusError(name: "org.bluez.Error.AuthenticationRejected", message: error.name), to: call)
                } else {
                    bus.send(bus.reply(to: call)!)
                }
            }
            return .deferred
        default:
            return .reply(bus.reply(to: call)!)
        }
    }

    private func run(until done: () -> Bool) {
        for _ in 0..<200 where !done() { _ = loop.runOnce(timeout: .seconds(1)) }
    }

    /// An Agent1 call from `caller`, its answer once it comes.
    private func callAgent(from caller: BusConnection, _ member: String, _ build: @escaping (BusReply) -> Void) -> Result<BusMessage, BusError>? {
        var answer: Result<BusMessage, BusError>?
        _ = try? caller.callAsync(destination: connection.uniqueName!, path: BluezPairing.agentPath, interface: "org.bluez.Agent1",
                                  member: member, timeout: .seconds(20), autoStart: false, build) { answer = $0 }
        run { answer != nil }
        return answer
    }

    private func connected() {
        pairing.connect(device)
        run { events.contains(.connected) }
        #expect(events == [.connected])
    }

    @Test("Just Works: the agent is registered with the capability, the prompt reported and answered, the bond kept and removed")
    func justWorks() throws {
        connected()
        pairPrompt = ("RequestAuthorization", { [path] in $0.append(objectPath: path) })
        pairing.pair(device, capability: .noInputNoOutput)
        run { events.count == 2 }
        #expect(events.last == .prompted(.justWorks))
        #expect(agentAnswer == nil, "the prompt waits for the procedure's reply")
        pairing.reply(.confirm, to: device)
        run { events.count == 3 }
        #expect(events.last == .paired)
        #expect(calls == ["Get", "RegisterAgent NoInputNoOutput", "Pair", "Disconnect"])

        try pairing.keepBond(of: device, for: AccessoryID(0xA1))
        // No pairing left: the agent goes, so it does not stay bluetoothd's default.
        run { calls.last == "UnregisterAgent" }
        #expect(calls.last == "UnregisterAgent")
        #expect(pairing.bonds[AccessoryID(0xA1)]?.keeper == .bluetoothd)
        #expect(pairing.requiredSecurity(for: AccessoryID(0xA1)) == .medium)
        pairing.removeBond(of: AccessoryID(0xA1), device: device)
        run { calls.contains { $0.hasPrefix("RemoveDevice") } }
        // The device bluetoothd lists with the accessory's address, under whatever path it has.
        #expect(calls.suffix(2) == ["GetManagedObjects", "RemoveDevice \(Self.pairedAtPath)"])
        #expect(pairing.bonds.isEmpty)
        #expect(BondStore(directory: scratch.path("state")).bonds.isEmpty)
    }

    @Test("a device bluetoothd does not know is found by a discovery of LE only, stopped once it appears")
    func discovered() throws {
        known = false
        pairing.connect(device)
        run { events.contains(.connected) }
        run { calls.contains("StopDiscovery") }
        #expect(events == [.connected])
        #expect(calls == ["Get", "SetDiscoveryFilter", "StartDiscovery", "StopDiscovery"])
    }

    @Test("the IRK heard on the management socket while bluetoothd pairs goes into the bond's record")
    func identityHeard() throws {
        connected()
        pairing.pair(device, capability: .noInputNoOutput)
        let identity = BluetoothDeviceIdentifier(address: BluetoothAddress("C0:11:22:33:44:66")!, addressType: .random)
        let irk = SecurityKey(hex: "ec0234a357c8ad05341010a60a397d9b")!
        run { calls.contains("Pair") }
        // Another pairing's key (another controller, another address) is not this one's.
        pairing.identityLearned(controller: 1, randomAddress: device.address, identity: identity, irk: irk)
        pairing.identityLearned(controller: 0, randomAddress: BluetoothAddress("4A:00:00:00:00:01")!, identity: identity, irk: irk)
        run { events.count == 2 }
        #expect(events.last == .paired)
        try pairing.keepBond(of: device, for: AccessoryID(0xA2))
        #expect(pairing.bonds[AccessoryID(0xA2)] == Bond(accessory: AccessoryID(0xA2), identity: device, keeper: .bluetoothd))
        // No IRK in the record: channels go to the address heard last.
        #expect(!pairing.kernelResolves(device))
        pairing.removeBond(of: AccessoryID(0xA2), device: device)

        connected2()
        pairing.pair(device, capability: .noInputNoOutput)
        run { calls.filter { $0 == "Pair" }.count == 2 }
        pairing.identityLearned(controller: 0, randomAddress: device.address, identity: identity, irk: irk)
        run { events.count == 4 }
        try pairing.keepBond(of: device, for: AccessoryID(0xA3))
        #expect(pairing.bonds[AccessoryID(0xA3)] == Bond(accessory: AccessoryID(0xA3), identity: identity, irk: irk, keeper: .bluetoothd))
        // bluetoothd loaded that IRK into the kernel: a channel asks for the identity address.
        #expect(pairing.kernelResolves(identity))
        #expect(!pairing.kernelResolves(device))
        pairing.bluetoothd(present: false)
        #expect(!pairing.kernelResolves(identity))
    }

    private func connected2() {
        pairing.connect(device)
        run { events.filter { $0 == .connected }.count == 2 }
    }

    @Test("a passkey the person enters goes back as RequestPasskey's answer")
    func passkeyEntry() throws {
        connected()
        pairPrompt = ("RequestPasskey", { [path] in $0.append(objectPath: path) })
        pairing.pair(device, capability: .keyboardDisplay)
        run { events.count == 2 }
        #expect(events.last == .prompted(.passkeyEntry))
        pairing.reply(.passkey(PairingPasskey(123_456)!), to: device)
        run { events.count == 3 }
        #expect(try agentAnswer?.get().readUInt32() == 123_456)
        #expect(events.last == .paired)
        #expect(calls.contains("RegisterAgent KeyboardDisplay"))
    }

    @Test("the procedure's refusal is Agent1's Rejected, and Pair's error is the procedure's input")
    func refused() throws {
        connected()
        pairPrompt = ("RequestConfirmation", { [path] in $0.append(objectPath: path).append(UInt32(999_999)) })
        pairing.pair(device, capability: .keyboardDisplay)
        run { events.count == 2 }
        #expect(events.last == .prompted(.numericComparison(PairingPasskey(999_999)!)))
        pairing.reply(.reject, to: device)
        run { events.count == 3 }
        #expect(agentAnswer.map { if case .failure(let e) = $0 { e.name } else { "" } } == "org.bluez.Error.Rejected")
        #expect(events.last == .pairingFailed(.rejectedByAccessory))
        // Pair ran: whatever it left is removed with the setup.
        pairing.abandon(device)
        run { calls.last == "UnregisterAgent" }
        #expect(calls.suffix(2) == ["RemoveDevice \(path)", "UnregisterAgent"])
    }

    @Test("a bond bluetoothd already had is not removed when the setup is abandoned")
    func alreadyBonded() throws {
        connected()
        pairError = "org.bluez.Error.AlreadyExists"
        pairing.pair(device, capability: .noInputNoOutput)
        run { events.count == 2 }
        #expect(events.last == .pairingFailed(.other("bluetoothd holds a bond for it already; remove it there first")))
        pairing.abandon(device)
        // A call after the abandon on the same connection reaches the stand-in after anything the abandon sent.
        var probed = false
        try connection.callAsync(destination: "org.bluez", path: "/probe", interface: "org.example.Probe", member: "Probe",
                                 timeout: .seconds(20), autoStart: false) { _ in probed = true }
        run { probed }
        // No RemoveDevice, only the agent's unregistration.
        #expect(calls.suffix(3) == ["Pair", "UnregisterAgent", "Probe"])
    }

    @Test("Agent1 calls from anyone but bluetoothd, for a device not being paired, or out of range are rejected")
    func hostileAgentCalls() throws {
        connected()
        pairPrompt = ("RequestAuthorization", { [path] in $0.append(objectPath: path) })
        pairing.pair(device, capability: .noInputNoOutput)
        run { events.count == 2 }
        let stranger = try BusConnection(address: bus.address, loop: loop)
        func rejected(_ answer: Result<BusMessage, BusError>?) -> String? {
            guard case .failure(let error)? = answer else { return nil }
            return error.name
        }
        let path = path
        #expect(rejected(callAgent(from: stranger, "RequestAuthorization") { $0.append(objectPath: path) }) == "org.bluez.Error.Rejected")
        #expect(rejected(callAgent(from: bluez, "RequestConfirmation") { $0.append(objectPath: path).append(UInt32(1_000_000)) })
                == "org.bluez.Error.Rejected")
        #expect(rejected(callAgent(from: bluez, "DisplayPasskey") { $0.append(objectPath: path).append(UInt32(12)).append(UInt16(7)) })
                == "org.bluez.Error.Rejected")
        #expect(rejected(callAgent(from: bluez, "RequestAuthorization") { $0.append(objectPath: "/org/bluez/hci0/dev_00_00_00_00_00_01") })
                == "org.bluez.Error.Rejected")
        #expect(rejected(callAgent(from: bluez, "RequestAuthorization") { $0.append(objectPath: "/org/bluez/hci0") })
                == "org.bluez.Error.Rejected")
        #expect(rejected(callAgent(from: bluez, "RequestAuthorization") { $0.append("not a path") }) == "org.bluez.Error.Rejected")
        #expect(rejected(callAgent(from: bluez, "RequestPinCode") { $0.append(objectPath: path) }) == "org.bluez.Error.Rejected")
        // The open prompt is still the one that counts, and nothing else was reported.
        #expect(events == [.connected, .prompted(.justWorks)])
        // bluetoothd takes its prompt back: the procedure hears it.
        #expect(rejected(callAgent(from: bluez, "Cancel") { _ in }) == nil)
        run { events.count == 3 }
        #expect(events.last == .promptCancelled)
        withExtendedLifetime(stranger) {}
    }
}
