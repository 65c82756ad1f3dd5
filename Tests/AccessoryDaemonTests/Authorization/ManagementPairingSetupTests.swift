import AccessoryCodecs
import AccessoryCore
import AccessoryDecisions
import AccessoryPlatform
import Logging
import Testing
import TestSupport
@testable import AccessoryDaemon

/// Setup of an accessory that asks for pairing, without bluetoothd: the
/// authorization center as the daemon wires it, the real management back
/// end writing its commands into a list instead of the socket and reading
/// the kernel's events as bytes, the real grant and bond stores in a
/// scratch directory, and the manual scheduler for every deadline.
@Suite struct ManagementPairingSetupTests {
    static let address = "C0:FF:EE:00:00:12"
    static let device = BluetoothDeviceIdentifier(address: HardwareAddress(address)!, addressType: .public)
    /// The device as management packets carry it: LE public is type 1 there.
    static let wire: [UInt8] = HardwareAddress(address)!.littleEndianOctets + [1]
    static let key: [UInt8] = Array(0x10...0x1F)

    static let manifest = AppManifest(app: "acme", supports: [.bluetooth], bluetoothServiceUUIDs: [BluetoothUUID(uuid16: 0x180F)],
                                      bluetoothNames: ["Acme"], bluetoothPairing: true)
    static let lock: DiscoveryDescriptor = {
        var descriptor = DiscoveryDescriptor(bluetoothServiceUUID: BluetoothUUID(uuid16: 0x180F), bluetoothNameSubstring: "Acme")
        descriptor.supportedOptions = [.bluetoothPairingLE]
        return descriptor
    }()

    final class World {
        let scratch: ScratchDirectory
        let scheduler = ManualScheduler()
        let pipeline: DiscoveryPipeline
        let center: AuthorizationCenter
        let grants: GrantStore
        let bonds: BondStore
        var backEnd: ManagementPairing
        var sent: [[UInt8]] = []
        var notices: [String] = []
        var request: UInt32 = 0

        init(policy: PairingPolicy = .any, bluetoothd: Bool = false) throws {
            scratch = try ScratchDirectory("mgmt-pairing")
            grants = GrantStore(directory: scratch.path)
            bonds = BondStore(directory: scratch.path)
            pipeline = DiscoveryPipeline(clock: scheduler)
            let logger = Logger(label: "accessoryd") { _ in SwiftLogNoOpLogHandler() }
            center = AuthorizationCenter(store: grants, pipeline: pipeline, logger: logger, scheduler: scheduler)
            backEnd = ManagementPairing(store: bonds, scheduler: scheduler, logger: logger, controllers: { [0] }) { _ in }
            backEnd = makeBackEnd(logger: logger)
            backEnd.bluetoothdPresent = bluetoothd
            center.pairingBackEnd = backEnd
            center.pairingPolicy = policy
            center.notify = { [unowned self] notice in
                if case .session(_, let event) = notice { notices.append(Self.describe(event)) }
                if case .agent(.pairingQuestion(let question, let agent)) = notice { notices.append("asked \(agent) \(question.id) \(question.prompt.name)") }
                if case .agent(.pairingQuestionWithdrawn(let id, let agent)) = notice { notices.append("withdrawn \(agent) \(id)") }
                if case .app(_, let event) = notice { notices.append(Self.describe(event)) }
            }
            sent = []
        }

        /// Another start of accessoryd on the same state directory.
        func makeBackEnd(logger: Logger = Logger(label: "accessoryd") { _ in SwiftLogNoOpLogHandler() }) -> ManagementPairing {
            ManagementPairing(store: bonds, scheduler: scheduler, logger: logger, controllers: { [0] }) { [unowned self] packet in
                sent.append(packet)
            }
        }

        static func describe(_ event: AuthorizationNotice.SessionEvent) -> String {
            switch event {
            case .accessoryAdded(let id): "accessoryAdded \(id)"
            case .pickerSetupPairing(let id): "pickerSetupPairing \(id)"
            case .pickerSetupFailed(let error): "pickerSetupFailed \(error.reason?.description ?? "")"
            case .pickerDidDismiss(let error): "pickerDidDismiss \(error.map { "\($0.code)" } ?? "-")"
            case .accessoryRemoved(let id): "accessoryRemoved \(id)"
            default: "other"
            }
        }

        /// Shows the picker, hears the lock, approves it: by default as an
        /// approval window would (nobody to ask, so the daemon confirms Just Works).
        func approve(by decider: Decider = .policy) throws {
            request = try center.showPicker(session: 1, manifest: ManagementPairingSetupTests.manifest,
                                            items: [PickerDisplayItem(name: "Acme lock", descriptor: ManagementPairingSetupTests.lock)],
                                            settings: PickerDisplaySettings())
            let name = Array("Acme 12".utf8)
            pipeline.record(Advertisement(
                device: ManagementPairingSetupTests.device, properties: [.connectable], rssi: -50,
                data: AdvertisingData(flags: 6, completeLocalName: name, completeServiceUUIDs: [BluetoothUUID(uuid16: 0x180F)]),
                rawAdvertisingData: [2, 0x01, 0x06, UInt8(name.count + 1), 0x09] + name + [3, 0x03, 0x0F, 0x18]))
            notices = []
            let reserved = try center.approve(request, candidate: 1, name: nil, by: decider)
            // The id it will have (Pairing=refuse ends it at once, so it may be gone already).
            #expect(reserved.count == 1)
            #expect(center.core.pairings[request].map { [$0.accessory] == reserved } ?? true)
            scheduler.runDue()
        }

        /// A packet from the kernel, as the socket would deliver it, then the loop's next turn.
        func kernel(_ code: UInt16, controller: UInt16 = 0, _ parameters: [UInt8]) {
            backEnd.handle(packet: [UInt8(code & 0xFF), UInt8(code >> 8), UInt8(controller), 0,
                                    UInt8(parameters.count), 0] + parameters)
            scheduler.runDue()
        }

        var reserved: AccessoryID? { center.core.pairings[request]?.accessory }
        var opcodes: [UInt16] { sent.map { UInt16($0[0]) | UInt16($0[1]) << 8 } }
    }

    /// The kernel's side of a Just Works pairing that succeeds: the
    /// confirmation (for accessoryd's controller and for the peripheral's,
    /// which is not accessoryd's to answer), the keys, Pair Device's success.
    func pairJustWorks(_ w: World) {
        w.kernel(0x000F, controller: 1, Self.wire + [1, 0, 0, 0, 0])
        #expect(w.sent.isEmpty, "answered another controller's confirmation")
        w.kernel(0x000F, Self.wire + [1, 0, 0, 0, 0])
        #expect(w.sent == [[0x1C, 0, 0, 0, 7, 0] + Self.wire], "Just Works confirmed by the daemon")
        w.kernel(0x000A, [1] + Self.wire + [0x02, 0x00, 16, 0, 0] + [UInt8](repeating: 0, count: 8) + Self.key)
        w.kernel(0x0018, [1] + HardwareAddress(Self.address)!.littleEndianOctets + Self.wire + Self.key)
        w.kernel(0x0001, [0x19, 0x00, 0x00] + Self.wire)
    }

    @Test func justWorksPairsThenGrantsAndKeepsTheBond() throws {
        let w = try World()
        try w.approve()
        let id = try #require(w.reserved)
        // Secure Connections and Bondable first (no bluetoothd set them: without Bondable no key
        // would be distributed), then Pair Device, NoInputNoOutput.
        #expect(w.sent == [[0x2D, 0, 0, 0, 1, 0, 1], [0x09, 0, 0, 0, 1, 0, 1], [0x19, 0, 0, 0, 8, 0] + Self.wire + [0x03]])
        #expect(w.notices == ["pickerSetupPairing \(id)"])
        #expect(w.grants.grants.isEmpty && w.bonds.bonds.isEmpty)
        w.sent = []
        pairJustWorks(w)
        #expect(w.notices == ["pickerSetupPairing \(id)", "accessoryAdded \(id)", "pickerDidDismiss -"])
        #expect(w.grants.grants[id]?.bluetooth == Self.device)
        let bond = try #require(w.bonds.bonds[id])
        #expect(bond.identity == Self.device && bond.irk?.hex == "1f1e1d1c1b1a19181716151413121110")
        #expect(bond.ltk?.secureConnections == true && bond.ltk?.authenticated == false)
        #expect(w.backEnd.requiredSecurity(for: id) == .medium)
        #expect(!w.opcodes.contains(0x001B), "nothing unpaired")
    }

    @Test func anAccessoryHeardAtAPrivateAddressIsBondedAndGrantedUnderItsIdentity() throws {
        // Paired at the address it was heard at; it shares its IRK and identity address, and the
        // kernel names the identity from then on (the keys, Pair Device's answer).
        let w = try World()
        try w.approve()
        let id = try #require(w.reserved)
        let identity = BluetoothDeviceIdentifier(address: BluetoothAddress(rawValue: 0x00AA_0101_0001)!, addressType: .public)
        let identityWire = HardwareAddress("00:AA:01:01:00:01")!.littleEndianOctets + [1]
        w.kernel(0x000F, Self.wire + [1, 0, 0, 0, 0])
        w.kernel(0x0018, [1] + HardwareAddress(Self.address)!.littleEndianOctets + identityWire + Self.key)
        w.kernel(0x000A, [1] + identityWire + [0x02, 0x00, 16, 0, 0] + [UInt8](repeating: 0, count: 8) + Self.key)
        w.kernel(0x0001, [0x19, 0x00, 0x00] + identityWire)
        #expect(w.notices == ["pickerSetupPairing \(id)", "accessoryAdded \(id)", "pickerDidDismiss -"])
        #expect(w.grants.grants[id]?.bluetooth == identity)
        let bond = try #require(w.bonds.bonds[id])
        #expect(bond.identity == identity && bond.irk != nil && bond.ltk != nil)
    }

    @Test func theBondIsLoadedAtTheNextStartAndGoesWithTheAccessory() throws {
        let w = try World()
        try w.approve()
        let id = try #require(w.reserved)
        w.sent = []
        pairJustWorks(w)
        // accessoryd again: the keys go to the controller once bluetoothd is known to be absent.
        let next = w.makeBackEnd()
        w.sent = []
        next.bluetoothdPresent = false
        #expect(w.opcodes == [0x0013, 0x0030])
        #expect(w.sent[0].count == 6 + 2 + 36 && w.sent[0][6] == 1 && Array(w.sent[0].suffix(16)) == Self.key)
        #expect(next.requiredSecurity(for: id) == .medium)
        // A rename keeps it; a removal takes it from the store and from the kernel.
        try w.center.rename(id, app: "acme", to: "Front door", renameSSID: false, by: .app("acme"))
        #expect(w.bonds.bonds[id] != nil)
        w.sent = []
        try w.center.remove(id, app: "acme", by: .app("acme"))
        #expect(w.bonds.bonds.isEmpty)
        #expect(w.sent == [[0x1B, 0, 0, 0, 8, 0] + Self.wire + [1]])
        #expect(w.backEnd.requiredSecurity(for: id) == nil)
    }

    @Test(arguments: [
        (UInt8(0x05), "(authenticationFailed)"), (0x0B, "(rejectedByAccessory)"), (0x04, "(accessoryGone)"), (0x08, "(timedOut)"),
    ])
    func aFailedPairingGrantsAndStoresNothing(status: UInt8, reason: String) throws {
        let w = try World()
        try w.approve()
        let id = try #require(w.reserved)
        w.kernel(0x000A, [1] + Self.wire + [0x02, 0x00, 16, 0, 0] + [UInt8](repeating: 0, count: 8) + Self.key)
        w.sent = []
        w.kernel(0x0001, [0x19, 0x00, status] + Self.wire)
        #expect(w.notices.count == 3)
        #expect(w.notices.dropFirst().first?.hasPrefix("pickerSetupFailed pairing Acme 12 failed \(reason)") == true, "\(w.notices)")
        #expect(w.notices.last == "pickerDidDismiss connectionFailed")
        #expect(w.grants.grants.isEmpty && w.bonds.bonds.isEmpty)
        // The kernel's copy of whatever keys it produced goes too.
        #expect(w.sent == [[0x1B, 0, 0, 0, 8, 0] + Self.wire + [1]])
        #expect(w.center.requests[w.request] == nil && w.center.core.grants[id] == nil)
    }

    @Test func aKernelThatNeverAnswersTimesOutAndCancels() throws {
        let w = try World()
        try w.approve()
        w.sent = []
        w.scheduler.advance(by: .seconds(90))
        #expect(w.opcodes == [0x001A, 0x001B], "Cancel Pair Device, then Unpair Device")
        #expect(w.notices.contains { $0.hasPrefix("pickerSetupFailed") && $0.contains("(timedOut)") })
        #expect(w.grants.grants.isEmpty && w.bonds.bonds.isEmpty)
    }

    @Test func pairingRefusedByPolicySendsNothing() throws {
        let w = try World(policy: .refuse)
        try w.approve()
        #expect(w.sent.isEmpty)
        #expect(w.notices.first?.contains("(refusedByPolicy)") == true, "\(w.notices)")
        #expect(w.notices.last == "pickerDidDismiss userRestricted")
    }

    @Test func justWorksOnlyRefusesANumberByName() throws {
        let w = try World(policy: .justWorksOnly)
        try w.approve()
        w.sent = []
        w.kernel(0x000F, Self.wire + [0, 0x40, 0xE2, 0x01, 0x00])
        #expect(w.opcodes == [0x001D, 0x001A, 0x001B], "negative reply, cancel, unpair")
        #expect(w.notices.contains { $0.contains("(refusedByPolicy)") && $0.contains("just-works-only") }, "\(w.notices)")
        #expect(w.grants.grants.isEmpty && w.bonds.bonds.isEmpty)
    }

    @Test func theAgentThatApprovedIsAskedAndOnlyItOrAnAdministratorMayAnswer() throws {
        let w = try World()
        try w.approve(by: .agent(":1.7"))
        let id = try #require(w.reserved)
        #expect(w.sent.last == [0x19, 0, 0, 0, 8, 0] + Self.wire + [0x04], "Pair Device, KeyboardDisplay: someone can be asked")
        #expect(w.center.core.pairings[w.request]?.approver == .agent(":1.7"))
        w.sent = []
        // Numeric comparison: 123456 on both sides.
        w.kernel(0x000F, Self.wire + [0, 0x40, 0xE2, 0x01, 0x00])
        #expect(w.notices == ["pickerSetupPairing \(id)", "asked :1.7 \(w.request)/1 numeric comparison"])
        let question = try #require(w.center.pairingQuestions.first)
        #expect(question.question.prompt == .numericComparison(PairingPasskey(123_456)!))
        let asked = question.question.id
        #expect(throws: PairingAnswerError.notTheApprover(asked)) {
            try w.center.answerPairing(.confirm, to: asked, by: .agent(":1.8"))
        }
        #expect(throws: PairingAnswerError.expectedConfirmation(asked, prompt: "numeric comparison")) {
            try w.center.answerPairing(.passkey(PairingPasskey(123_456)!), to: asked, by: .agent(":1.7"))
        }
        #expect(throws: PairingAnswerError.noSuchQuestion(PairingQuestion.ID(request: w.request, prompt: 2))) {
            try w.center.answerPairing(.confirm, to: PairingQuestion.ID(request: w.request, prompt: 2), by: .agent(":1.7"))
        }
        #expect(w.sent.isEmpty, "a refused answer sends nothing")
        // An administrator may answer the agent's question.
        try w.center.answerPairing(.confirm, to: asked, by: .administrator(uid: 0, name: "root"))
        #expect(w.sent == [[0x1C, 0, 0, 0, 7, 0] + Self.wire])
        #expect(w.center.pairingQuestions.isEmpty)
        // The agent is told the question is over: someone else answered it.
        #expect(w.notices.last == "withdrawn :1.7 \(asked)")
    }

    @Test func anUnansweredQuestionTimesOutAsTheApproversSilence() throws {
        let w = try World()
        try w.approve(by: .administrator(uid: 0, name: "root"))
        w.kernel(0x0010, Self.wire)
        #expect(w.center.pairingQuestions.map(\.question.prompt) == [.passkeyEntry])
        // Asked of an administrator: listed for Admin1, not sent to an agent.
        #expect(!w.notices.contains { $0.hasPrefix("asked") })
        w.sent = []
        w.scheduler.advance(by: .seconds(25))
        #expect(w.opcodes == [0x001F, 0x001A, 0x001B], "User Passkey Negative Reply, cancel, unpair")
        #expect(w.notices.contains { $0.hasPrefix("pickerSetupFailed") && $0.contains("(timedOut)") }, "\(w.notices)")
        #expect(w.notices.last == "pickerDidDismiss userCancelled")
        #expect(w.center.pairingQuestions.isEmpty && w.grants.grants.isEmpty && w.bonds.bonds.isEmpty)
    }

    @Test func aWrongPasskeyFailsByNameAndStoresNothing() throws {
        let w = try World()
        try w.approve(by: .administrator(uid: 0, name: "root"))
        w.kernel(0x0010, Self.wire)
        let asked = try #require(w.center.pairingQuestions.first?.question.id)
        try w.center.answerPairing(.passkey(PairingPasskey(1)!), to: asked, by: .administrator(uid: 1000, name: "ada"))
        #expect(w.sent.last == [0x1E, 0, 0, 0, 11, 0] + Self.wire + [1, 0, 0, 0])
        w.kernel(0x0001, [0x19, 0x00, 0x05] + Self.wire)
        #expect(w.notices.contains { $0.hasPrefix("pickerSetupFailed pairing Acme 12 failed (wrongPasskey)") }, "\(w.notices)")
        #expect(w.grants.grants.isEmpty && w.bonds.bonds.isEmpty)
    }

    @Test func besideBluetoothdSetupFailsByName() throws {
        let w = try World(bluetoothd: true)
        try w.approve()
        #expect(w.sent.isEmpty)
        #expect(w.notices.first?.contains("(backEndFailed)") == true && w.notices.first?.contains("bluetoothd") == true, "\(w.notices)")
        #expect(w.grants.grants.isEmpty)
    }

    @Test func theAppWithdrawingStopsThePairing() throws {
        let w = try World()
        try w.approve()
        w.sent = []
        try w.center.withdraw(session: 1)
        #expect(w.opcodes == [0x001A, 0x001B])
        w.kernel(0x0001, [0x19, 0x00, 0x00] + Self.wire)
        #expect(w.grants.grants.isEmpty && w.bonds.bonds.isEmpty)
    }
}
