import AccessoryCore
import AccessoryDecisions
import AccessoryPlatform
import AccessoryRadios
import Logging

/// Carries out `ControllerPowerPolicy`: the kernel's management socket on
/// the event loop, Set Powered when the policy asks, the journal entries.
/// Power goes through the management interface, not HCIDEVUP, because that
/// is the interface bluetoothd uses: it cancels the kernel's auto-off the
/// same way, and the New Settings event it causes reaches every management
/// client, so a bluetoothd that starts later finds the controller powered
/// and in a state it knows, and takes it over as its own.
final class ControllerPower {
    private var policy: ControllerPowerPolicy
    private let loop: EventLoop
    private var logger: Logger
    private var socket: ManagementSocket?
    private var watchToken: WatchToken?
    private var openFailed = false

    init(setting: ControllerPowerPolicy.Setting, uses: @escaping (UInt16) -> Bool, loop: EventLoop, logger: Logger) {
        policy = ControllerPowerPolicy(setting: setting, uses: uses)
        self.loop = loop
        self.logger = logger
    }

    var setting: ControllerPowerPolicy.Setting { policy.setting }

    func controllerAppeared(_ index: UInt16) { perform(policy.controllerAppeared(index)) }
    func controllerRemoved(_ index: UInt16) { perform(policy.controllerRemoved(index)) }
    func controllerWent(up: Bool, _ index: UInt16) { perform(policy.controllerWent(up: up, index)) }

    func managerChanged(_ manager: ControllerPowerPolicy.Manager) {
        guard manager != policy.manager else { return }
        logger.debug("Bluetooth controllers managed by: \(manager)")
        // The management socket is opened once someone may have to power a controller.
        if manager == .nobody, policy.setting == .auto { openSocket() }
        perform(policy.managerChanged(manager))
    }

    func stop() {
        if let watchToken { loop.stopWatching(watchToken) }
        watchToken = nil
        socket = nil
    }

    // MARK: Socket

    private func openSocket() {
        guard socket == nil, !openFailed else { return }
        do {
            let socket = try ManagementSocket()
            watchToken = try loop.watch(fd: socket.fd) { [unowned self] _ in readAvailable() }
            self.socket = socket
        } catch {
            openFailed = true
            logger.log(.bluetoothUnavailable, level: .warning,
                       "Cannot open the kernel's Bluetooth management interface, so controllers nobody powers stay down: \(error)")
        }
    }

    private func readAvailable() {
        guard let socket else { return }
        do {
            while let packet = try socket.receive() {
                guard let event = ManagementPacket.decode(packet) else { continue }
                handle(event)
            }
        } catch {
            logger.log(.bluetoothUnavailable, level: .warning, "Lost the Bluetooth management interface: \(error)")
            stop()
        }
    }

    private func handle(_ event: ManagementPacket.Event) {
        switch event {
        case .indexAdded(let index):
            // Set up and in the kernel's short power-on: the moment to keep it up.
            perform(policy.controllerAppeared(index))
        case .indexRemoved(let index):
            perform(policy.controllerRemoved(index))
        case .newSettings(let index, let settings):
            perform(policy.settings(index, powered: settings & ManagementPacket.poweredSetting != 0))
        case .commandAnswered(ManagementPacket.setPoweredOpcode, let index, let status, let settings):
            perform(policy.powerAnswered(index, status: status,
                                         powered: settings.map { $0 & ManagementPacket.poweredSetting != 0 }))
        case .commandAnswered, .other:
            break
        }
    }

    // MARK: Actions

    private func perform(_ actions: [ControllerPowerPolicy.Action]) {
        for action in actions {
            switch action {
            case .powerOn(let index):
                if socket == nil { openSocket() }
                do {
                    guard let socket else { throw SystemError(operation: "no management socket", errno: 19) }
                    try socket.send(ManagementPacket.setPowered(controller: index, on: true))
                    logger.debug("hci\(index): asking the kernel to power it")
                } catch {
                    perform(policy.powerAnswered(index, status: 0xFF, powered: nil))
                }
            case .announcePowering(let index):
                logger.log(.bluetoothControllerPowered, level: .notice,
                           "hci\(index): no other process manages it (bluetoothd is not running); accessoryd powers it and keeps it up",
                           metadata: ["bluetooth.controller": "hci\(index)"])
            case .leaveToBluetoothd(let indices):
                logger.info("bluetoothd is running; leaving the power of \(indices.map { "hci\($0)" }.joined(separator: ", ")) to it")
            case .powerFailed(let index, let status, let firstTime):
                let why = Self.describe(status: status)
                if firstTime {
                    logger.log(.bluetoothUnavailable, level: .warning,
                               "hci\(index): cannot power it (\(why)); it stays down until it comes back or is powered by someone else",
                               metadata: ["bluetooth.controller": "hci\(index)", "bluetooth.reason": "\(why)"])
                } else {
                    logger.debug("hci\(index): cannot power it again (\(why))")
                }
            }
        }
    }

    static func describe(status: UInt8) -> String {
        switch status {
        case 0x0A: "busy"
        case 0x0D: "invalid parameters"
        case 0x11: "no such controller"
        case 0x12: "blocked by rfkill"
        case 0x14: "permission denied (CAP_NET_ADMIN)"
        case 0xFF: "the management interface is not available"
        default: "management status 0x\(hexString([status]))"
        }
    }
}
