import AccessoryCore
import AccessoryPlatform
import AccessoryRadios
import Logging

/// Pairing during setup beside bluetoothd, through BlueZ's D-Bus API:
/// accessoryd's own `org.bluez.Agent1`, registered only while a pairing
/// runs (bluetoothd sends a pairing's prompts to the agent of whoever called
/// Device1.Pair, and makes the first agent registered its default), the accessory's Device1 found by a discovery of
/// accessoryd's, and Device1.Pair called without waiting. bluetoothd keeps
/// the keys and loads them into the kernel; the bond store only records that
/// this accessory's bond is bluetoothd's (and its IRK when the management
/// socket's New IRK event went by, read passively). Never the management
/// interface's pairing commands or key loads here: beside bluetoothd they
/// would race it and replace its keys.
///
/// Runs on the event loop; reports go out on a later turn, never inside a call.
public final class BluezPairing: PairingBackEnd {
    static let agentPath = "/org/accessoryagent/bluez_agent"
    static let service = "org.bluez"
    /// Pair waits for the person and the accessory; the procedure's own deadline ends it first.
    static let pairTimeout: Duration = .seconds(120)
    static let callTimeout: Duration = .seconds(10)

    public var report: (BluetoothDeviceIdentifier, PairingBackEndEvent) -> Void = { _, _ in }
    /// Agent1's prompts go to whoever approved (PickerAgent1, accessoryctl).
    public var asksApprover: Bool { true }

    public var refusal: String? {
        guard bluetoothdPresent else { return "bluetoothd is not running" }
        return controllers().isEmpty ? "no Bluetooth controller to pair from" : nil
    }

    enum Stage: Equatable {
        /// Waiting for bluetoothd to show the accessory's Device1.
        case finding
        /// Known to bluetoothd; Pair not called yet.
        case found
        /// Pair called, no answer yet.
        case pairing
        /// Pair answered with success; the link is being let go.
        case releasing
        case paired
        /// Pair answered with an error: only `abandon` is left.
        case failed
    }

    /// An Agent1 call left unanswered until the procedure replies.
    struct OwedPrompt {
        let call: BusMessage
        let wantsPasskey: Bool
    }

    struct Pairing {
        let controller: UInt16
        let path: String
        var stage: Stage
        var call: PendingBusCall?
        var owed: OwedPrompt?
        /// Pair was called and did not say the bond is someone else's: abandoning removes the device.
        var mayHaveBonded = false
        var capability: PairingIOCapability?
        var identity: BluetoothDeviceIdentifier?
        var irk: SecurityKey?
    }

    let bus: BusConnection
    let scheduler: any Scheduler
    let logger: Logger
    let store: BondStore
    /// The controllers to pair from (the first); the same list the management back end uses.
    let controllers: () -> [UInt16]
    var pairings: [BluetoothDeviceIdentifier: Pairing] = [:]
    /// The store's bonds, as last read or written.
    public internal(set) var bonds: [AccessoryID: Bond]
    private(set) var bluetoothdPresent = false
    /// org.bluez's unique name, from the reply to RegisterAgent: the only
    /// peer whose Agent1 calls are taken.
    var bluezName: String?
    /// The capability the agent is registered with; nil: not registered.
    var registered: PairingIOCapability?
    /// Pairings waiting for the agent's (re-)registration, in order.
    var agentWaiters: [(PairingIOCapability, (BusError?) -> Void)] = []
    var agentBusy = false
    /// The controller this back end runs a discovery on in bluetoothd (for pairings still finding).
    var discovering: UInt16?
    var interfacesAdded: SignalWatch?

    init(bus: BusConnection, scheduler: any Scheduler, store: BondStore, logger: Logger, controllers: @escaping () -> [UInt16]) {
        self.bus = bus
        self.scheduler = scheduler
        self.store = store
        self.logger = logger
        self.controllers = controllers
        bonds = store.bonds
    }

    /// The back end with its Agent1 object served and bluetoothd's new devices followed.
    public static func attached(
        to bus: BusConnection, scheduler: any Scheduler, store: BondStore, logger: Logger, controllers: @escaping () -> [UInt16]
    ) throws(SystemError) -> BluezPairing {
        let pairing = BluezPairing(bus: bus, scheduler: scheduler, store: store, logger: logger, controllers: controllers)
        try bus.serve(path: agentPath) { [weak pairing] call, _ in pairing?.agentCall(call) }
        pairing.interfacesAdded = try bus.watchSignal(
            sender: service, interface: "org.freedesktop.DBus.ObjectManager", member: "InterfacesAdded"
        ) { [weak pairing] signal in pairing?.interfacesAdded(signal) }
        return pairing
    }

    /// bluetoothd came or went. Gone: its agent registration and every
    /// pairing through it are over.
    public func bluetoothd(present: Bool) {
        guard present != bluetoothdPresent else { return }
        bluetoothdPresent = present
        bonds = store.bonds
        guard !present else { return }
        bluezName = nil
        registered = nil
        discovering = nil
        agentBusy = false
        let waiters = agentWaiters
        agentWaiters = []
        for (_, waiter) in waiters { waiter(BusError(name: "org.freedesktop.DBus.Error.ServiceUnknown", message: "bluetoothd stopped")) }
        for (device, pairing) in pairings {
            pairing.call?.cancel()
            pairings[device]?.call = nil
            pairings[device]?.owed = nil
            pairings[device]?.stage = .failed
            later(device, pairing.stage == .finding ? .connectFailed(.other("bluetoothd stopped"))
                                                    : .pairingFailed(.other("bluetoothd stopped")))
        }
    }

    /// The security a channel to `accessory` asks for: medium for a bond
    /// bluetoothd keeps (the kernel has its key, and encrypts with it).
    public func requiredSecurity(for accessory: AccessoryID) -> L2CAPSecurity.Level? {
        guard bluetoothdPresent, bonds[accessory]?.keeper == .bluetoothd else { return nil }
        return .medium
    }

    /// Whether the kernel holds `identity`'s IRK: a bond bluetoothd keeps with
    /// an IRK (bluetoothd loads its bonds' IRKs into the kernel, at its start
    /// and as each pairing ends).
    public func kernelResolves(_ identity: BluetoothDeviceIdentifier) -> Bool {
        bluetoothdPresent && bonds.values.contains { $0.identity == identity && $0.irk != nil && $0.keeper == .bluetoothd }
    }

    // MARK: PairingBackEnd

    public func connect(_ device: BluetoothDeviceIdentifier) {
        guard let controller = controllers().first else {
            later(device, .connectFailed(.other("no Bluetooth controller to pair from")))
            return
        }
        let path = BluezObjectPath.device(device.address, on: controller)
        pairings[device] = Pairing(controller: controller, path: path, stage: .finding)
        find(device)
    }

    public func pair(_ device: BluetoothDeviceIdentifier, capability: PairingIOCapability) {
        guard let pairing = pairings[device], pairing.stage == .found else {
            later(device, .pairingFailed(.other("the accessory is not known to bluetoothd")))
            return
        }
        pairings[device]?.capability = capability
        withAgent(capability) { [weak self] error in
            guard let self, self.pairings[device]?.stage == .found else { return }
            if let error {
                self.pairings[device] = nil
                self.later(device, .pairingFailed(.other("cannot register the pairing agent with bluetoothd: \(error.name)")))
                return
            }
            self.callPair(device)
        }
    }

    public func reply(_ reply: PairingReply, to device: BluetoothDeviceIdentifier) {
        guard let owed = pairings[device]?.owed else { return }
        pairings[device]?.owed = nil
        switch (reply, owed.wantsPasskey) {
        case (.confirm, false):
            if let answer = bus.reply(to: owed.call) { bus.send(answer) }
        case (.passkey(let passkey), true):
            if let answer = bus.reply(to: owed.call) { bus.send(answer.append(passkey.value)) }
        default:
            bus.sendError(Self.rejected("refused"), to: owed.call)
        }
    }

    public func abandon(_ device: BluetoothDeviceIdentifier) {
        guard let pairing = pairings.removeValue(forKey: device) else { return }
        if let owed = pairing.owed { bus.sendError(BusError(name: "org.bluez.Error.Canceled", message: "setup ended"), to: owed.call) }
        if pairing.stage == .pairing {
            pairing.call?.cancel()
            callLogged(pairing.path, "org.bluez.Device1", "CancelPairing")
        }
        if pairing.mayHaveBonded {
            // Whatever bond the pairing left goes, and the link with it.
            callLogged(BluezObjectPath.adapter(pairing.controller), "org.bluez.Adapter1", "RemoveDevice") { $0.append(objectPath: pairing.path) }
        }
        stopDiscoveryIfIdle()
        releaseAgentIfIdle()
    }

    public func keepBond(of device: BluetoothDeviceIdentifier, for accessory: AccessoryID) throws -> BluetoothDeviceIdentifier {
        guard let pairing = pairings[device], pairing.stage == .paired else {
            throw SystemError(operation: "pairing \(device) through bluetoothd did not complete", errno: 126 /* ENOKEY */)
        }
        let bond = Bond(accessory: accessory, identity: pairing.identity ?? device, irk: pairing.irk, keeper: .bluetoothd)
        var next = store.bonds
        next[accessory] = bond
        try store.write(next)
        bonds = next
        pairings[device] = nil
        releaseAgentIfIdle()
        logger.info("Bond kept by bluetoothd for accessory \(accessory) (\(bond.identity))",
                    metadata: ["accessory.id": "\(accessory)", "identity": "\(bond.identity)",
                               "bond.keeper": "bluetoothd", "bond.irk": "\(bond.irk != nil)"])
        return bond.identity
    }

    public func removeBond(of accessory: AccessoryID, device: BluetoothDeviceIdentifier?) {
        var next = store.bonds
        guard let bond = next.removeValue(forKey: accessory) else { return }
        do {
            try store.write(next)
        } catch {
            logger.error("Cannot remove the bond of accessory \(accessory): \(error)", metadata: ["accessory.id": "\(accessory)"])
            return
        }
        bonds = next
        // A bond of accessoryd's own was never bluetoothd's to forget.
        if bond.keeper == .bluetoothd { removeDevices(at: bond.identity.address, for: accessory) }
        logger.info("Bond removed with accessory \(accessory) (\(bond.identity))",
                    metadata: ["accessory.id": "\(accessory)", "identity": "\(bond.identity)"])
    }

    // MARK: The management socket, passively

    /// A New IRK event on the management socket (bluetoothd's pairing, and
    /// every socket hears it): the identity and IRK of a pairing of ours.
    public func identityLearned(controller: UInt16, randomAddress: BluetoothAddress, identity: BluetoothDeviceIdentifier, irk: SecurityKey) {
        guard let device = pairings.first(where: { entry in
            entry.value.controller == controller && entry.value.stage != .finding
                && (entry.key.address == randomAddress || entry.key == identity)
        })?.key else { return }
        pairings[device]?.identity = identity
        pairings[device]?.irk = irk
    }

    // MARK: Pair

    private func callPair(_ device: BluetoothDeviceIdentifier) {
        guard let path = pairings[device]?.path else { return }
        do {
            let call = try bus.callAsync(destination: Self.service, path: path, interface: "org.bluez.Device1", member: "Pair",
                                         timeout: Self.pairTimeout, autoStart: false) { [weak self] result in
                self?.pairAnswered(device, result)
            }
            pairings[device]?.stage = .pairing
            pairings[device]?.call = call
            pairings[device]?.mayHaveBonded = true
        } catch {
            pairings[device] = nil
            later(device, .pairingFailed(.other("cannot call Pair: \(error.name)")))
        }
    }

    private func pairAnswered(_ device: BluetoothDeviceIdentifier, _ result: Result<BusMessage, BusError>) {
        guard let pairing = pairings[device], pairing.stage == .pairing else { return }
        pairings[device]?.call = nil
        if let owed = pairing.owed {
            // bluetoothd's pairing is over: a prompt it still waits on is moot.
            bus.sendError(BusError(name: "org.bluez.Error.Canceled", message: "pairing ended"), to: owed.call)
            pairings[device]?.owed = nil
        }
        switch result {
        case .failure(let error):
            pairings[device]?.stage = .failed
            if BluezPairingError.leftNoBondOfOurs(error) { pairings[device]?.mayHaveBonded = false }
            logger.info("bluetoothd's Pair of \(device) failed: \(error.name)", metadata: ["device": "\(device)", "error": "\(error.name)"])
            report(device, .pairingFailed(BluezPairingError.pairing(error)))
        case .success:
            // bluetoothd stays connected after pairing, holding the link's one
            // ATT channel; the app's channel needs it, so the link is let go.
            pairings[device]?.stage = .releasing
            do {
                pairings[device]?.call = try bus.callAsync(
                    destination: Self.service, path: pairing.path, interface: "org.bluez.Device1", member: "Disconnect",
                    timeout: Self.callTimeout, autoStart: false) { [weak self] _ in self?.released(device) }
            } catch {
                released(device)
            }
        }
    }

    private func released(_ device: BluetoothDeviceIdentifier) {
        guard pairings[device]?.stage == .releasing else { return }
        pairings[device]?.call = nil
        pairings[device]?.stage = .paired
        report(device, .paired)
    }

    // MARK: Helpers

    func later(_ device: BluetoothDeviceIdentifier, _ event: PairingBackEndEvent) {
        scheduler.at(scheduler.now) { [weak self] in self?.report(device, event) }
    }

    /// A call whose answer matters only for the journal.
    func callLogged(_ path: String, _ interface: String, _ member: String, _ build: (BusReply) -> Void = { _ in }) {
        do {
            try bus.callAsync(destination: Self.service, path: path, interface: interface, member: member,
                              timeout: Self.callTimeout, autoStart: false, build) { [logger] result in
                if case .failure(let error) = result {
                    logger.debug("bluetoothd's \(member) on \(path) failed: \(error.name)")
                }
            }
        } catch {
            logger.warning("Cannot call bluetoothd's \(member): \(error.name)")
        }
    }

    static func rejected(_ why: String) -> BusError { BusError(name: "org.bluez.Error.Rejected", message: why) }
}
