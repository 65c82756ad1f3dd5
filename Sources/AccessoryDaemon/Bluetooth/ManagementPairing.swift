import AccessoryCodecs
import AccessoryCore
import AccessoryPlatform
import AccessoryRadios
import Logging

/// Pairing during setup without bluetoothd, through the kernel's management
/// interface: Pair Device, the confirmation and passkey events and their
/// replies, and the New LTK / IRK / CSRK events, whose keys are held until
/// the setup completes (then kept in the bond store) or fails (then the
/// kernel's copy is dropped with Unpair Device). Keys in the store are
/// loaded into the controllers when accessoryd finds no bluetoothd.
///
/// Never beside bluetoothd: every management socket gets every event, and
/// bluetoothd answers confirmations itself and replaces the kernel's key
/// lists with its own, so `refusal` names that instead. Runs on the event
/// loop; its reports go out on the loop's next turn, never inside a call.
public final class ManagementPairing: PairingBackEnd {
    public var report: (BluetoothDeviceIdentifier, PairingBackEndEvent) -> Void = { _, _ in }
    /// User Confirmation Request, User Passkey Request and Passkey Notify
    /// become prompts for the approver (PickerAgent1, Admin1), so Pair Device
    /// may offer KeyboardDisplay.
    public var asksApprover: Bool { true }

    /// Whether bluetoothd owns org.bluez; nil until the bus says.
    public var bluetoothdPresent: Bool? {
        didSet {
            guard bluetoothdPresent != oldValue, bluetoothdPresent == false else { return }
            // The BlueZ back end may have written the store meanwhile.
            bonds = store.bonds
            loadBonds()
        }
    }

    /// Beside bluetoothd: a New IRK event of bluetoothd's pairing, heard
    /// (every management socket hears it) and passed on, never answered.
    public var identityLearned: ((_ controller: UInt16, _ randomAddress: BluetoothAddress,
                                  _ identity: BluetoothDeviceIdentifier, _ irk: SecurityKey) -> Void)?

    public var refusal: String? {
        switch bluetoothdPresent {
        case true?: return "bluetoothd runs: pairing goes through it, not the management interface"
        case nil: return "whether bluetoothd runs is not known, and pairing beside it would race it"
        case false?: return controllers().isEmpty ? "no Bluetooth controller to pair from" : nil
        }
    }

    /// What the Prompt that is pending wants in reply.
    private enum Owed { case confirmation, passkey }

    private struct Pairing {
        var controller: UInt16
        /// Pair Device was answered: the kernel's pairing is over.
        var answered = false
        var owed: Owed?
        var identity: BluetoothDeviceIdentifier?
        var irk: SecurityKey?
        var ltk: LongTermKey?
        var csrk: SecurityKey?
    }

    private let store: BondStore
    private let scheduler: any Scheduler
    private let logger: Logger
    /// The controllers to pair from (the first) and to load keys into.
    private let controllers: () -> [UInt16]
    private let send: ([UInt8]) throws(SystemError) -> Void
    private var pairings: [BluetoothDeviceIdentifier: Pairing] = [:]
    /// The store's bonds, as last written.
    public private(set) var bonds: [AccessoryID: Bond]
    /// The socket and its watch, when `attached` made them.
    var attachment: (socket: ManagementSocket, token: WatchToken, loop: EventLoop)?

    public init(store: BondStore, scheduler: any Scheduler, logger: Logger, controllers: @escaping () -> [UInt16],
                send: @escaping ([UInt8]) throws(SystemError) -> Void) {
        self.store = store
        self.scheduler = scheduler
        self.logger = logger
        self.controllers = controllers
        self.send = send
        bonds = store.bonds
    }

    /// The security a channel to `accessory` asks for: medium for a bond,
    /// high for an authenticated one; nil without a bond of accessoryd's.
    public func requiredSecurity(for accessory: AccessoryID) -> L2CAPSecurity.Level? {
        guard bluetoothdPresent == false, let ltk = bonds[accessory]?.ltk else { return nil }
        return ltk.authenticated ? .high : .medium
    }

    /// Whether the kernel holds `identity`'s IRK: one of accessoryd's bonds,
    /// loaded into the controllers (no bluetoothd to replace the list).
    public func kernelResolves(_ identity: BluetoothDeviceIdentifier) -> Bool {
        bluetoothdPresent == false && bonds.values.contains { $0.identity == identity && $0.irk != nil }
    }

    // MARK: PairingBackEnd

    public func connect(_ device: BluetoothDeviceIdentifier) {
        // Pair Device connects and pairs in one command.
        later(device, .connected)
    }

    public func pair(_ device: BluetoothDeviceIdentifier, capability: PairingIOCapability) {
        guard let controller = controllers().first else {
            later(device, .pairingFailed(.other("no Bluetooth controller to pair from")))
            return
        }
        pairings[device] = Pairing(controller: controller)
        do {
            // The controller's settings first: bluetoothd would have made them, and none is here.
            // A controller without Secure Connections refuses that setting; legacy pairing still works.
            sendLogged(ManagementCommand.secureConnections(controller: controller))
            try send(ManagementCommand.bondable(true, controller: controller))
            try send(ManagementCommand.pair(device, capability: capability, controller: controller))
        } catch {
            pairings[device] = nil
            later(device, .pairingFailed(.other("\(error)")))
        }
    }

    public func reply(_ reply: PairingReply, to device: BluetoothDeviceIdentifier) {
        guard let pairing = pairings[device], let owed = pairing.owed else { return }
        pairings[device]?.owed = nil
        sendLogged(ManagementCommand.reply(reply, passkeyRequest: owed == .passkey, to: device, controller: pairing.controller))
    }

    public func abandon(_ device: BluetoothDeviceIdentifier) {
        guard let pairing = pairings.removeValue(forKey: device) else { return }
        if !pairing.answered { sendLogged(ManagementCommand.cancelPair(device, controller: pairing.controller)) }
        // Whatever keys the kernel took from this pairing go, and the link with them.
        sendLogged(ManagementCommand.unpair(pairing.identity ?? device, disconnect: true, controller: pairing.controller))
    }

    public func keepBond(of device: BluetoothDeviceIdentifier, for accessory: AccessoryID) throws -> BluetoothDeviceIdentifier {
        guard let pairing = pairings[device], pairing.irk != nil || pairing.ltk != nil || pairing.csrk != nil else {
            throw SystemError(operation: "pairing \(device) left no key to keep", errno: 126 /* ENOKEY */)
        }
        let bond = Bond(accessory: accessory, identity: pairing.identity ?? device, irk: pairing.irk, ltk: pairing.ltk, csrk: pairing.csrk)
        var next = bonds
        next[accessory] = bond
        try store.write(next)
        bonds = next
        pairings[device] = nil
        logger.info("Bond kept for accessory \(accessory) (\(bond.identity))",
                    metadata: ["accessory.id": "\(accessory)", "identity": "\(bond.identity)",
                               "bond.keys": .array(keyNames(bond).map { .string($0) })])
        return bond.identity
    }

    public func removeBond(of accessory: AccessoryID, device: BluetoothDeviceIdentifier?) {
        guard let bond = bonds[accessory] else { return }
        var next = bonds
        next[accessory] = nil
        do {
            try store.write(next)
        } catch {
            logger.error("Cannot remove the bond of accessory \(accessory): \(error)", metadata: ["accessory.id": "\(accessory)"])
            return
        }
        bonds = next
        // Beside bluetoothd the kernel's keys are its own.
        if bluetoothdPresent == false {
            for controller in controllers() {
                sendLogged(ManagementCommand.unpair(bond.identity, disconnect: true, controller: controller))
            }
        }
        logger.info("Bond removed with accessory \(accessory) (\(bond.identity))",
                    metadata: ["accessory.id": "\(accessory)", "identity": "\(bond.identity)"])
    }

    // MARK: Keys at start

    /// Loads the store's keys into every controller: the whole list, so only
    /// when no bluetoothd keeps one. Again for a controller that appears.
    public func loadBonds(into only: UInt16? = nil) {
        guard bluetoothdPresent == false else { return }
        let all = bonds.values.sorted { $0.accessory < $1.accessory }
        for controller in controllers() where only == nil || only == controller {
            sendLogged(ManagementCommand.loadLongTermKeys(all, controller: controller))
            sendLogged(ManagementCommand.loadIdentityResolvingKeys(all, controller: controller))
        }
        logger.info("Loaded \(all.count) bond(s) into the Bluetooth controllers", metadata: ["bonds": "\(all.count)"])
    }

    // MARK: Events

    /// One packet from the management socket.
    public func handle(packet: [UInt8]) {
        let event: ManagementPairingEvent?
        do {
            event = try ManagementPairingEvent.decode(packet)
        } catch {
            logger.debug("Management event dropped: \(error)")
            return
        }
        guard let event else {
            if case .indexAdded(let index)? = ManagementPacket.decode(packet) { loadBonds(into: index) }
            return
        }
        handle(event)
    }

    private func handle(_ event: ManagementPairingEvent) {
        switch event {
        case .commandAnswered(let opcode, let controller, let status, let echoed):
            if opcode == ManagementCommand.loadLongTermKeys || opcode == ManagementCommand.loadIdentityResolvingKeys, status != 0 {
                // The bonds' links would not be encrypted: worth the administrator's eye.
                logger.warning("Controller \(controller) refused the bonds' keys (management status 0x\(hexByte(status)))",
                               metadata: ["controller": "\(controller)", "status": "\(status)"])
            }
            // The answer echoes the identity address when the accessory shared one, not the private address paired.
            guard opcode == ManagementCommand.pairDevice,
                  let device = echoed.flatMap({ pairing(of: $0, on: controller) })
                      ?? pairings.first(where: { $0.value.controller == controller && !$0.value.answered })?.key,
                  pairings[device]?.answered == false else { return }
            pairings[device]?.answered = true
            pairings[device]?.owed = nil
            later(device, status == 0 ? .paired : .pairingFailed(Self.error(status)))
        case .userConfirmationRequest(let controller, let device, let justWorks, let value):
            guard ours(device, on: controller) else { return }
            pairings[device]?.owed = .confirmation
            let prompt: PairingPrompt = justWorks ? .justWorks : PairingPasskey(value).map { .numericComparison($0) } ?? .justWorks
            later(device, .prompted(prompt))
        case .userPasskeyRequest(let controller, let device):
            guard ours(device, on: controller) else { return }
            pairings[device]?.owed = .passkey
            later(device, .prompted(.passkeyEntry))
        case .passkeyNotify(let controller, let device, let passkey, let entered):
            // Later notifications count the keys typed on the accessory: the prompt is the first.
            guard ours(device, on: controller), entered == 0, let passkey = PairingPasskey(passkey) else { return }
            later(device, .prompted(.passkeyDisplay(passkey)))
        case .newLongTermKey(let controller, let key):
            guard let device = pairing(of: key.device, on: controller), let ltk = key.longTermKey else { return }
            pairings[device]?.ltk = ltk
        case .newIdentityResolvingKey(let controller, let randomAddress, let identity, let key):
            if bluetoothdPresent == true { identityLearned?(controller, randomAddress, identity, key) }
            guard let device = pairing(of: identity, on: controller)
                ?? pairings.first(where: { $0.key.address == randomAddress && $0.value.controller == controller })?.key else { return }
            pairings[device]?.irk = key
            pairings[device]?.identity = identity
        case .newSignatureResolvingKey(let controller, let device, let remote, _, let key):
            guard remote, let paired = pairing(of: device, on: controller) else { return }
            pairings[paired]?.csrk = key
        case .deviceDisconnected(let controller, let device, _):
            guard let paired = pairing(of: device, on: controller), pairings[paired]?.answered == false else { return }
            later(paired, .disconnected)
        case .authenticationFailed:
            // Pair Device's answer follows with the status.
            break
        }
    }

    /// A prompt for a pairing of accessoryd's, still running: others (the
    /// peripheral's side of a controller on this host, bluetoothd's) are not answered.
    private func ours(_ device: BluetoothDeviceIdentifier, on controller: UInt16) -> Bool {
        guard let pairing = pairings[device] else { return false }
        return pairing.controller == controller && !pairing.answered
    }

    /// The pairing a key event belongs to: by the address it paired, or by the identity it learned.
    private func pairing(of device: BluetoothDeviceIdentifier, on controller: UInt16) -> BluetoothDeviceIdentifier? {
        if pairings[device]?.controller == controller { return device }
        return pairings.first { $0.value.controller == controller && $0.value.identity == device }?.key
    }

    private func later(_ device: BluetoothDeviceIdentifier, _ event: PairingBackEndEvent) {
        scheduler.at(scheduler.now) { [weak self] in self?.report(device, event) }
    }

    private func sendLogged(_ packet: [UInt8]) {
        do { try send(packet) } catch { logger.warning("Cannot send to the Bluetooth management interface: \(error)") }
    }

    private func keyNames(_ bond: Bond) -> [String] {
        [bond.ltk.map { $0.authenticated ? "LTK (authenticated)" : "LTK" }, bond.irk.map { _ in "IRK" }, bond.csrk.map { _ in "CSRK" }]
            .compactMap { $0 }
    }

    /// Pair Device's status, in the terms of the procedure (mgmt-api.txt's status codes).
    static func error(_ status: UInt8) -> PairingBackEndError {
        switch status {
        case 0x04: .notFound
        case 0x05: .authenticationFailed
        case 0x08: .timedOut
        case 0x0B, 0x0C: .rejectedByAccessory
        case 0x0E: .disconnected
        case 0x10: .other("cancelled")
        case 0x13: .other("the controller holds keys for it already")
        case 0x0F: .other("the controller is not powered")
        default: .other("management status 0x\(hexByte(status))")
        }
    }
}
