import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Foundation
import Logging
import Testing
import TestSupport
@testable import AccessoryDaemon

/// Setup pairing as the app sees it on a real dbus-daemon: the app under
/// its own unix user, the administrator approving with accessoryctl, the
/// management back end fed the kernel's events as bytes (no radio).
@Suite(.serialized) struct SetupPairingServiceTests {
    static let app = AppManifest(app: "lock-app", user: "nobody", supports: [.bluetooth],
                                 bluetoothServiceUUIDs: [BluetoothUUID(uuid16: 0x180F)], bluetoothNames: ["Porch"],
                                 bluetoothPairing: true)
    static let wire: [UInt8] = HardwareAddress("C0:FF:EE:00:00:01")!.littleEndianOctets + [1]

    final class Sent { var packets: [[UInt8]] = [] }

    func harness() throws -> (ServiceHarness, ManagementPairing, Sent) {
        let h = try ServiceHarness(manifests: [Self.app])
        let sent = Sent()
        let backEnd = ManagementPairing(store: BondStore(directory: h.directory), scheduler: h.scheduler,
                                        logger: Logger(label: "accessoryd") { _ in SwiftLogNoOpLogHandler() },
                                        controllers: { [0] }) { packet in sent.packets.append(packet) }
        backEnd.bluetoothdPresent = false
        h.service.center.pairingBackEnd = backEnd
        sent.packets = []
        return (h, backEnd, sent)
    }

    /// The app's picker for a lock that asks for pairing; the lock heard; the administrator approves.
    func approve(_ h: ServiceHarness) throws -> (client: (Process, Pipe, Pipe), approved: String) {
        let client = try h.startClient([
            ["call", BusNames.root, BusNames.manager, "OpenSession"], ["call", "session", BusNames.session, "Activate"],
            ["show", "Porch lock", "ServiceUUID=180F", "NameSubstring=Porch", "SupportedOptions=bluetoothPairingLE"],
            ["until", "PickerDidDismiss"],
        ], as: "nobody")
        h.pump { !h.service.center.requests.isEmpty }
        h.hear("C0:FF:EE:00:00:01", name: "Porch lock", service: 0x180F)
        let number = try #require(h.service.center.requests.values.first?.number)
        let approved = try h.accessoryctl(["approve", "\(number)", "1"])
        #expect(approved.status == 0, "\(approved.err)")
        h.scheduler.runDue()
        return (client, approved.out)
    }

    func kernel(_ h: ServiceHarness, _ backEnd: ManagementPairing, _ code: UInt16, _ parameters: [UInt8]) {
        backEnd.handle(packet: [UInt8(code & 0xFF), UInt8(code >> 8), 0, 0, UInt8(parameters.count), 0] + parameters)
        h.scheduler.runDue()
    }

    /// The signals' names the app heard, in order.
    func signals(_ output: String) -> [String] {
        output.split(separator: "\n").filter { $0.hasPrefix("signal ") }.map { String($0.split(separator: " ")[1]) }
    }

    @Test func theAppHearsPairingThenTheAccessoryInTheDocumentedOrder() throws {
        let (h, backEnd, sent) = try harness()
        let (client, approved) = try approve(h)
        #expect(h.store.grants.isEmpty)
        // An administrator approved: someone can be asked, so KeyboardDisplay (after the controller's settings).
        #expect(sent.packets.last == [0x19, 0, 0, 0, 8, 0] + Self.wire + [0x04], "Pair Device")
        kernel(h, backEnd, 0x000F, Self.wire + [1, 0, 0, 0, 0])
        // Just Works shows no number to check: the approval was the consent, and accessoryd confirms it.
        #expect(sent.packets.last == [0x1C, 0, 0, 0, 7, 0] + Self.wire, "User Confirmation Reply")
        kernel(h, backEnd, 0x000A, [1] + Self.wire + [0x02, 0x00, 16, 0, 0] + [UInt8](repeating: 0, count: 8) + Array(0...15))
        kernel(h, backEnd, 0x0001, [0x19, 0x00, 0x00] + Self.wire)
        let output = h.finish(client)
        let grant = try #require(h.store.grants.values.first)
        let path = BusNames.path(of: grant.accessory)
        // accessoryctl named the id it would have; the app heard it first with PickerSetupPairing.
        #expect(approved.contains("\(grant.accessory)"))
        #expect(signals(output) == ["Activated", "PropertiesChanged", "PickerDidPresent", "PickerSetupPairing", "InterfacesAdded",
                                    "AccessoryAdded", "PickerDidDismiss"], "\(output)")
        #expect(output.contains("signal PickerSetupPairing \(path)\n"))
        #expect(output.contains("signal PickerDidDismiss  \n"))
        #expect(backEnd.bonds[grant.accessory] != nil)
    }

    /// The kernel's User Passkey Request, put to the administrator who approved.
    func askPasskey(_ h: ServiceHarness, _ backEnd: ManagementPairing) throws -> UInt32 {
        kernel(h, backEnd, 0x0010, Self.wire)
        return try #require(h.service.center.pairingQuestions.first?.question.id.request)
    }

    @Test func theAdministratorEntersThePasskeyWithAccessoryctl() throws {
        let (h, backEnd, sent) = try harness()
        let (client, _) = try approve(h)
        let request = try askPasskey(h, backEnd)
        let listed = try h.accessoryctl(["pairing-questions"])
        #expect(listed.status == 0 && listed.out.contains("passkey-entry"), "\(listed.out)\(listed.err)")
        #expect(listed.out.contains("administrator") && listed.out.contains("Porch lock"), "\(listed.out)")
        let answered = try h.accessoryctl(["answer-pairing", "\(request)", "--passkey", "123456"])
        #expect(answered.status == 0 && answered.out == "answered: request \(request) prompt 1\n", "\(answered.err)")
        // User Passkey Reply with 123456 (0x01E240), little-endian.
        #expect(sent.packets.last == [0x1E, 0, 0, 0, 11, 0] + Self.wire + [0x40, 0xE2, 0x01, 0x00])
        #expect(h.service.center.pairingQuestions.isEmpty)
        kernel(h, backEnd, 0x000A, [1] + Self.wire + [0x03, 0x00, 16, 0, 0] + [UInt8](repeating: 0, count: 8) + Array(0...15))
        kernel(h, backEnd, 0x0001, [0x19, 0x00, 0x00] + Self.wire)
        let output = h.finish(client)
        #expect(signals(output).suffix(3) == ["InterfacesAdded", "AccessoryAdded", "PickerDidDismiss"], "\(output)")
        let grant = try #require(h.store.grants.values.first)
        #expect(backEnd.bonds[grant.accessory]?.ltk?.authenticated == true)
    }

    @Test func aRefusedAnswerIsANamedErrorAndThePairingGoesOn() throws {
        let (h, backEnd, sent) = try harness()
        let (client, _) = try approve(h)
        let request = try askPasskey(h, backEnd)
        let before = sent.packets.count
        let unknown = try h.accessoryctl(["answer-pairing", "\(request)", "--prompt", "9", "--confirm"])
        #expect(unknown.status == 1 && unknown.err.contains("noSuchPairingQuestion"), "\(unknown.err)")
        let yes = try h.accessoryctl(["answer-pairing", "\(request)", "--confirm"])
        #expect(yes.status == 1 && yes.err.contains("invalidPairingAnswer"), "\(yes.err)")
        // Past 999999, sent raw: accessoryctl itself refuses it before the bus.
        let raw = try h.runClient([["admin", "AnswerPairing", "\(request)", "1", "1000000"]])
        #expect(raw.contains("invalidPairingAnswer"), "\(raw)")
        let long = try h.runClient([["admin", "AnswerPairing", "\(request)", "1", String(repeating: "1", count: 4096)]])
        #expect(long.contains("invalidPairingAnswer") && !long.contains("1111111"), "\(long)")
        let local = try h.accessoryctl(["answer-pairing", "\(request)", "--passkey", "1000000"])
        #expect(local.status == 1 && local.err.contains("six digits"), "\(local.err)")
        // A client that is not the approver: it registered as the agent after an administrator approved.
        let flag = h.directory + "/go-\(UUID())"
        let agent = try h.startClient([["serve", "/org/example/agent"], ["admin", "RegisterAgent", "/org/example/agent"],
                                       ["wait", flag], ["admin", "AnswerPairing", "\(request)", "1", "123456"]])
        h.pump { h.service.center.agent != nil }
        #expect(FileManager.default.createFile(atPath: flag, contents: nil))
        let agentSaid = h.finish(agent)
        #expect(agentSaid.contains("notTheApprover"), "\(agentSaid)")
        // Nothing went to the kernel, and the question is still open for the administrator.
        #expect(sent.packets.count == before)
        #expect(h.service.center.pairingQuestions.map(\.question.id.prompt) == [1])
        #expect(try h.accessoryctl(["answer-pairing", "\(request)", "--reject"]).status == 0)
        let output = h.finish(client)
        #expect(output.contains("PickerSetupFailed org.accessoryagent.Error.userCancelled pairing Porch lock failed (rejectedByPerson)"),
                "\(output)")
        #expect(h.store.grants.isEmpty && backEnd.bonds.isEmpty)
    }

    @Test func theAgentThatApprovedIsAskedAndItsAnswerGoesToTheKernel() throws {
        let (h, backEnd, sent) = try harness()
        let agent = try h.startClient([
            ["serve", "/org/example/agent", "approving", "answering", "654321"], ["admin", "RegisterAgent", "/org/example/agent"],
            ["until", "RequestEnded"],
        ])
        h.pump { h.service.center.agent != nil }
        let app = try h.startClient([
            ["call", BusNames.root, BusNames.manager, "OpenSession"], ["call", "session", BusNames.session, "Activate"],
            ["show", "Porch lock", "ServiceUUID=180F", "NameSubstring=Porch", "SupportedOptions=bluetoothPairingLE"],
            ["until", "PickerDidDismiss"],
        ], as: "nobody")
        h.pump { !h.service.center.requests.isEmpty }
        h.hear("C0:FF:EE:00:00:01", name: "Porch lock", service: 0x180F)
        // The agent approves on its own; the back end's reports wait for the manual scheduler.
        h.pump {
            h.scheduler.runDue()
            return !sent.packets.isEmpty
        }
        #expect(sent.packets.last == [0x19, 0, 0, 0, 8, 0] + Self.wire + [0x04], "Pair Device")
        kernel(h, backEnd, 0x0010, Self.wire)
        let pending = try #require(h.service.center.pairingQuestions.first)
        guard case .agent = pending.approver else {
            Issue.record("approver \(pending.approver)")
            return
        }
        h.pump { sent.packets.last?.first == 0x1E }
        #expect(sent.packets.last == [0x1E, 0, 0, 0, 11, 0] + Self.wire + [0xF1, 0xFB, 0x09, 0x00], "654321 = 0x09FBF1")
        kernel(h, backEnd, 0x000A, [1] + Self.wire + [0x03, 0x00, 16, 0, 0] + [UInt8](repeating: 0, count: 8) + Array(0...15))
        kernel(h, backEnd, 0x0001, [0x19, 0x00, 0x00] + Self.wire)
        let agentSaid = h.finish(agent)
        // Answered, the question is closed with the answer: no withdrawal follows.
        #expect(agentSaid.contains("PairingQuestion 1 1 passkey-entry \nanswered\nRequestEnded 1 approved\n"), "\(agentSaid)")
        #expect(h.finish(app).hasSuffix("signal PickerDidDismiss  \n"))
        #expect(h.store.grants.count == 1)
    }

    @Test func aRejectedPairingEndsTheSetupWithItsReasonAndGrantsNothing() throws {
        let (h, backEnd, _) = try harness()
        let (client, _) = try approve(h)
        kernel(h, backEnd, 0x0001, [0x19, 0x00, 0x0B] + Self.wire)
        let output = h.finish(client)
        #expect(signals(output) == ["Activated", "PropertiesChanged", "PickerDidPresent", "PickerSetupPairing", "PickerSetupFailed",
                                    "PickerDidDismiss"], "\(output)")
        #expect(output.contains("signal PickerSetupFailed org.accessoryagent.Error.connectionFailed pairing Porch lock failed (rejectedByAccessory)"),
                "\(output)")
        #expect(h.store.grants.isEmpty && backEnd.bonds.isEmpty)
    }
}
