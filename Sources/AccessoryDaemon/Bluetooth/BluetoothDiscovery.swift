import AccessoryCodecs
import AccessoryCore
import AccessoryDecisions
import AccessoryPlatform
import AccessoryRadios
import Glibc  // errno constants only
import Logging

/// Bluetooth LE discovery on every controller the configuration allows:
/// one adapter per controller that is up, started and stopped as the
/// kernel's device events say controllers come, go, come up or go down, so
/// hotplug never needs a restart. Everything heard goes to the pipeline.
public final class BluetoothDiscovery {
    private let settings: BluetoothSettings
    private let scanType: BluetoothSettings.ScanType
    /// Where the adapters read the time and arm their timers: the loop's
    /// (from `start(on:)`) unless one was injected.
    private var scheduler: (any Scheduler)?
    private var logger: Logger
    private let ingest: AdvertisingReportIngest
    private var loop: EventLoop?
    private var deviceEvents: HCISocket?
    private var deviceEventsToken: WatchToken?
    private var adapters: [UInt16: BluetoothControllerAdapter] = [:]
    /// Controllers whose adapter could not be opened, to log that only once per controller.
    private var failedToOpen: Set<UInt16> = []
    /// Exclusive controllers that were up before accessoryd took them down, to bring up again on exit.
    private var upBeforeTakenExclusively: Set<UInt16> = []
    /// Powers the controllers used when nobody else does (PowerControllers=auto).
    private var power: ControllerPower?
    /// Called when the controllers used or their scan phases changed (for STATUS=).
    public var onStateChange: (() -> Void)?

    public init(
        settings: BluetoothSettings, scanType: BluetoothSettings.ScanType, pipeline: DiscoveryPipeline,
        scheduler: (any Scheduler)? = nil, logger: Logger
    ) {
        self.settings = settings
        self.scanType = scanType
        self.scheduler = scheduler
        self.logger = logger
        ingest = AdvertisingReportIngest(pipeline: pipeline)
        ingest.onDamage = { [weak self] advertisement, damage in
            // Per advertisement, so debug only; the counts go into the summary at stop.
            self?.logger.debug(
                "\(advertisement.device): AD structures dropped, the rest kept: \(damage.map { "\($0)" }.joined(separator: ", "))")
        }
    }

    /// The controllers being scanned or listened to, by HCI index.
    public var activeControllers: [UInt16] { adapters.keys.sorted() }

    /// Each controller in use and what its scan amounts to, by HCI index.
    public var controllerActivities: [UInt16: ScanStateMachine.Activity] { adapters.mapValues(\.activity) }

    /// Who manages the controllers' power besides accessoryd, from the
    /// system bus: bluetoothd present (true), absent (false).
    /// Whether bluetoothd's presence matters: accessoryd may power controllers.
    public var powersControllers: Bool { power != nil }

    public func bluetoothdPresent(_ present: Bool) {
        power?.managerChanged(present ? .bluetoothd : .nobody)
    }

    /// Starts listening for device events, then opens every usable controller.
    /// A kernel without Bluetooth is logged, not an error: there is nothing to scan.
    public func start(on loop: EventLoop) {
        self.loop = loop
        if scheduler == nil { scheduler = loop }
        do {
            let socket = try HCISocket.deviceEvents()
            deviceEventsToken = try loop.watch(fd: socket.fd) { [unowned self] _ in readDeviceEvents() }
            deviceEvents = socket
        } catch {
            if error.errno == EAFNOSUPPORT || error.errno == EPROTONOSUPPORT {
                logger.info("The kernel has no Bluetooth support; Bluetooth discovery is off")
            } else {
                logger.log(.bluetoothUnavailable, level: .warning,
                           "Cannot follow Bluetooth controllers coming and going: \(error)")
            }
            return
        }
        // Only with Bluetooth in the kernel: without it there is nothing to power.
        if settings.powerControllers == .auto {
            power = ControllerPower(
                setting: settings.powerControllers,
                uses: { [settings] index in settings.shares(controller: index) },
                loop: loop, logger: logger)
        }
        do {
            for controller in try BluetoothControllerInfo.all() {
                power?.controllerAppeared(controller.index)
                if controller.isUp || isExclusive(controller.index) { open(controller.index) }
            }
        } catch {
            logger.log(.bluetoothUnavailable, level: .warning, "Cannot list Bluetooth controllers: \(error)")
        }
    }

    /// Leaves every controller's scan as it was found.
    public func stop() {
        for adapter in adapters.values { adapter.stop(leaveAsFound: true) }
        // Dropping the adapters closes their sockets, which gives exclusive controllers back.
        adapters.removeAll()
        // Controllers accessoryd powered stay up: a restart or an upgrade does not cycle the radio.
        power?.stop()
        for index in upBeforeTakenExclusively.sorted() {
            do { try HCISocket.setPower(controller: index, up: true) } catch {
                logger.warning("hci\(index): cannot bring it up again: \(error)")
            }
        }
        if let deviceEventsToken { loop?.stopWatching(deviceEventsToken) }
        deviceEventsToken = nil
        deviceEvents = nil
        logDrops()
    }

    // MARK: Device events

    private func readDeviceEvents() {
        guard let deviceEvents else { return }
        do {
            while let packet = try deviceEvents.receive() {
                guard let event = try? HCIEvent.decode(h4Packet: packet),
                    let deviceEvent = try? HCIDeviceEvent.decode(event)
                else { continue }
                handle(deviceEvent)
            }
        } catch {
            logger.log(.bluetoothUnavailable, level: .warning, "Lost the Bluetooth device events: \(error)")
            if let deviceEventsToken { loop?.stopWatching(deviceEventsToken) }
            deviceEventsToken = nil
        }
    }

    private func handle(_ event: HCIDeviceEvent) {
        let index = event.controllerIndex
        logger.debug("hci\(index): device event \(event.kind)")
        switch event.kind {
        case .registered:
            // A shared controller is used once it is up (bluetoothd, an
            // administrator or accessoryd brings it up); an exclusive one is ours to open.
            // Its power is decided at the management interface's Index Added, once its setup is done.
            if isExclusive(index) { openLater(index) }
        case .up:
            if !isExclusive(index) {
                open(index)
                power?.controllerWent(up: true, index)
            }
        case .down:
            // Taking an exclusive controller brings it down: that is us, not a loss.
            if !isExclusive(index) {
                close(index, reason: "went down")
                power?.controllerWent(up: false, index)
            }
        case .unregistered:
            close(index, reason: "was removed")
            power?.controllerRemoved(index)
        }
        // A controller came, went, or changed power: what STATUS= lists.
        onStateChange?()
    }

    // MARK: Adapters

    private func isExclusive(_ index: UInt16) -> Bool { settings.exclusiveControllers.contains(index) }

    private func open(_ index: UInt16) {
        guard let loop, let scheduler, adapters[index] == nil, settings.uses(controller: index) else { return }
        let info = try? BluetoothControllerInfo.all().first(where: { $0.index == index })
        // A controller without LE (BR/EDR only) has nothing for us.
        if let info, !info.supportsLowEnergy {
            logger.debug("hci\(index) has no LE; not used")
            return
        }
        if isExclusive(index), info?.isUp == true { upBeforeTakenExclusively.insert(index) }
        do {
            let adapter = try BluetoothControllerAdapter(
                index: index, exclusive: isExclusive(index), scanType: scanType, watchdog: settings.scanWatchdog,
                loop: loop, ingest: ingest, scheduler: scheduler, logger: logger,
                onFailure: { [unowned self] adapter, error in adapterFailed(adapter, error) })
            adapters[index] = adapter
            adapter.onActivityChange = { [weak self] in self?.onStateChange?() }
            try adapter.start()
            failedToOpen.remove(index)
            onStateChange?()
            logger.log(.bluetoothControllerAdded, level: .info,
                       "hci\(index): listening for LE advertisements\(isExclusive(index) ? " (exclusive)" : "")",
                       metadata: ["bluetooth.controller": "hci\(index)", "bluetooth.exclusive": "\(isExclusive(index))"])
        } catch {
            adapters[index]?.stop(leaveAsFound: false)
            adapters[index] = nil
            if failedToOpen.insert(index).inserted {
                logger.log(.bluetoothUnavailable, level: .warning, "hci\(index): cannot open: \(error)",
                           metadata: ["bluetooth.controller": "hci\(index)"])
            }
        }
    }

    /// The kernel is still setting a new controller up; give it a moment.
    private func openLater(_ index: UInt16) {
        guard let scheduler else { return }
        scheduler.at(scheduler.now.advanced(by: .seconds(1))) { [weak self] in self?.open(index) }
    }

    private func close(_ index: UInt16, reason: String) {
        guard let adapter = adapters.removeValue(forKey: index) else { return }
        adapter.stop(leaveAsFound: false)
        onStateChange?()
        logger.log(.bluetoothControllerRemoved, level: .info, "hci\(index) \(reason); no longer listening on it",
                   metadata: ["bluetooth.controller": "hci\(index)"])
    }

    private func adapterFailed(_ adapter: BluetoothControllerAdapter, _ error: SystemError) {
        let index = adapter.index
        guard adapters[index] === adapter else { return }
        // Drop it after the handler that noticed has returned.
        scheduler?.at(scheduler?.now ?? .zero) { [weak self] in
            self?.close(index, reason: "failed (\(error))")
        }
    }

    private func logDrops() {
        let drops = ingest.allDrops
        guard drops.total > 0 else { return }
        logger.info("Bluetooth reports and AD structures dropped: \(drops.summary)")
    }
}
