import AccessoryCore
import AccessoryDecisions
import AccessoryPlatform
import AccessoryRadios
import AccessoryWire
import Glibc  // signal numbers only
import Logging

/// accessoryd's life: load the configuration, find the radios, tell systemd
/// it is ready, then sleep in the event loop until a signal. SIGHUP re-reads
/// the configuration (a bad one is logged and the running one kept);
/// SIGTERM and SIGINT stop it cleanly.
public final class Daemon {
    public static let identifier = "accessoryd"
    /// sysexits' EX_CONFIG: systemd shows it as "exit-code", scripts can tell it apart.
    public static let exitConfigurationError: Int32 = 78
    public static let exitFailure: Int32 = 1
    /// sysexits' EX_UNAVAILABLE: the bus connection was lost while running
    /// (BUS_LOST), or could not be made at the start (BUS_UNAVAILABLE);
    /// systemd's Restart=on-failure starts accessoryd again.
    public static let exitBusLost: Int32 = 69

    /// Whether accessoryd exits when the D-Bus API cannot be offered at the
    /// start. The service has no other way to reach its apps, so a daemon
    /// that stayed up without it would be alive and unreachable; `--monitor`
    /// and `--bus-optional` (tests, trying the radios) run on without it.
    public var requiresBus = true

    /// `--replay FILE --serve`: the Bluetooth input comes from this capture,
    /// and no radio is used at all (no HCI socket, no Wi-Fi): the API with
    /// candidates from a recording, for apps' tests on machines without radios.
    public var servedCapture: ServedCapture?
    /// What systemd's status line and the ready log say: the radios in use now.
    private var readyStatus: String { currentStatus().text }
    /// The STATUS= text last sent, to notify systemd on a change only.
    private var sentStatus: String?
    private var statusUpdatePending = false
    private var bluetoothDiscovery: BluetoothDiscovery?
    /// Whether bluetoothd runs (owns org.bluez), for the controllers' power.
    private var bluetoothdWatch: BusNameWatch?
    /// The capture's input while it is served.
    private var captureInput: CaptureBluetoothInput?

    private let sources: ConfigurationSources
    private let logLevelOverride: Logger.Level?
    private var configuration: DaemonConfiguration
    private var logger: Logger
    private let notifier = ServiceManagerNotifier()
    private var loop: EventLoop?
    private var radios = RadioInventory(bluetoothControllers: [], wifiInterfaces: [])
    private var wifi: WiFiDiscovery?
    private var bus: BusConnection?
    private var service: AccessoryService?
    /// Wakes apps whose observed accessories appear; with the D-Bus API only.
    private var waker: AppWaker?
    /// The authorization core's adapter: made here, handed to the D-Bus service.
    private var authorization: AuthorizationCenter?
    /// Joins accessories' hotspots for apps.
    private var hotspots: HotspotJoiner?
    /// Grants survive restarts here; systemd's StateDirectory= names the place.
    public let grants = GrantStore(directory: DaemonDirectories.state)
    /// The keys of accessories accessoryd paired itself, beside the grants;
    /// their IRKs resolve the accessories' private addresses.
    public let bonds = BondStore(directory: DaemonDirectories.state)
    /// Pairing during setup through the management interface (without bluetoothd).
    private var pairing: ManagementPairing?
    /// Pairing during setup through BlueZ's D-Bus API (beside bluetoothd).
    private var bluezPairing: BluezPairing?
    /// Whether bluetoothd runs, for how setup pairs.
    private var pairingWatch: BusNameWatch?
    /// What `pairingWatch` said last; nil until it answers.
    private var pairingBluetoothd: Bool?
    /// Descriptors given with `--descriptors`, kept to tell the radios what to look for.
    private var descriptorEntries: [DescriptorFile.Entry] = []
    private let appLoader: AppCatalogLoader
    /// The apps that may ask for accessories, from their manifests.
    public private(set) var apps = AppManifestCatalog()
    /// Everything heard goes through here, on the loops' clock (it is made
    /// before the loop is).
    public let discovery = DiscoveryPipeline(clock: EventLoop.clock, identityCipher: NettleAES128())
    /// `--monitor`: print every sighting, and keep the radios listening for it.
    public var monitor: MonitorOutput?

    public init(
        sources: ConfigurationSources, configuration: DaemonConfiguration, logLevelOverride: Logger.Level?,
        appLoader: AppCatalogLoader = AppCatalogLoader()
    ) {
        self.sources = sources
        self.configuration = configuration
        self.logLevelOverride = logLevelOverride
        self.appLoader = appLoader
        logger = Logger(label: Self.identifier)
        logger.logLevel = logLevelOverride ?? configuration.logLevel
    }

    /// Loads the configuration, logging and printing why when it is bad.
    /// Returns nil on failure; the caller exits with `exitConfigurationError`.
    public static func loadConfiguration(_ sources: ConfigurationSources) -> DaemonConfiguration? {
        do {
            return try sources.load()
        } catch {
            var logger = Logger(label: identifier)
            logger.logLevel = .error
            logger.log(.configurationInvalid, level: .error, "Invalid configuration: \(error)",
                       metadata: error.metadata.mapValues { .string($0) })
            if LogTarget.auto.resolved == .journal { StandardError.write("accessoryd: \(error)\n") }
            return nil
        }
    }

    /// `--descriptors FILE`: descriptors of the administrator's for `--monitor`.
    public func addDescriptors(fromFile path: String) throws -> Void {
        guard let bytes = try FileSystem.readFileIfPresent(path) else {
            throw ConfigurationError.missing(path)
        }
        let entries = try DescriptorFile.parse(bytes, source: path)
        for entry in entries {
            try discovery.index.insert(entry.descriptor, id: entry.id, app: entry.app)
        }
        descriptorEntries += entries
    }

    /// `accessoryd --probe`: list the radios on stdout and log the result.
    public func probe() -> Int32 {
        do {
            let inventory = try RadioInventory.probe(configuration)
            for line in inventory.report { print(line) }
            logRadios(inventory)
            return 0
        } catch {
            logger.error("Cannot list radios: \(error)")
            return Self.exitFailure
        }
    }

    /// Runs until SIGTERM/SIGINT. Returns the process exit status.
    public func run() -> Int32 {
        do {
            let loop = try EventLoop()
            self.loop = loop
            try loop.onSignal(SIGTERM) { [unowned self] in stop(signal: "SIGTERM") }
            try loop.onSignal(SIGINT) { [unowned self] in stop(signal: "SIGINT") }
            try loop.onSignal(SIGHUP) { [unowned self] in reload() }

            logger.log(.daemonStarted, level: .info, "accessoryd \(Version.current) starting",
                       metadata: ["version": "\(Version.current)", "watchdog": "\(loop.watchdogEnabled)"])
            loadApps()
            if let servedCapture {
                // A capture that cannot be replayed ends the start before the bus name is claimed.
                // Its records wait on the loop's timers, which run once the loop does.
                guard let input = startCaptureInput(servedCapture, on: loop, logger: logger) else { return Self.exitFailure }
                captureInput = input
                logger.notice("Bluetooth input from the capture \(servedCapture.path); no radio is used",
                              metadata: ["replay.file": "\(servedCapture.path)"])
            } else {
                radios = try RadioInventory.probe(configuration)
                logRadios(radios)
            }
            if radios.isEmpty && servedCapture == nil {
                logger.log(.noRadios, level: .notice,
                           "No Bluetooth controller or Wi-Fi interface found; waiting for one to appear")
            }

            loadGrants()
            loadBonds()
            BondedIdentities.follow(bonds, into: discovery, logger: logger)
            discovery.onNewAddress = { [unowned self] identity, address in
                logger.debug("\(identity) is advertising from \(address)",
                             metadata: ["bluetooth.device": "\(identity)", "bluetooth.address_now": "\(address)"])
            }
            let authorization = AuthorizationCenter(store: grants, pipeline: discovery, logger: logger, scheduler: loop)
            authorization.demandChanged = { [unowned self] demand in
                appDemand = demand
                updateWiFiDemand()
            }
            // Wi-Fi accessories granted before this start want their presence followed.
            appDemand = authorization.demand
            self.authorization = authorization
            if configuration.wifiEnabled && servedCapture == nil {
                // Joins a crash interrupted are undone before anything else touches Wi-Fi.
                var settings = HotspotJoinSettings()
                settings.controlDirectory = configuration.wpaSupplicantDirectory
                let hotspots = HotspotJoiner(loop: loop, settings: settings, logger: logger)
                hotspots.recoverAfterCrash()
                self.hotspots = hotspots
            }
            guard startService(on: loop, authorization: authorization) || !requiresBus else { return Self.exitBusLost }
            service?.hotspots = hotspots
            // Radios come and go after the start (udev starts accessoryd for the
            // first one): channels and joins ask the kernel for the ones there now.
            service?.joinInterfaceChoice = { [unowned self] in
                configuration.wifiJoinInterface ?? ((try? WiFiInterfaceInfo.all()) ?? radios.wifiInterfaces).first?.name
            }
            defer { hotspots?.leaveAll() }  // the uplink back before accessoryd goes
            if servedCapture != nil {
                // A recording cannot be connected to: channels fail as they do without a controller.
                service?.channels = ChannelBroker(loop: loop, controllers: { [] }, logger: logger)
            } else if configuration.bluetoothEnabled {
                // Channels for apps, from the controllers accessoryd does not hold exclusively.
                let broker = ChannelBroker(loop: loop, controllers: { [unowned self] in
                    let settings = configuration.bluetooth
                    return ((try? BluetoothControllerInfo.all()) ?? radios.bluetoothControllers).filter {
                        settings.shares(controller: $0.index)
                    }
                }, logger: logger)
                // A bonded accessory is reached at the private address it was heard from last, unless
                // the kernel holds its IRK (loaded by accessoryd, or by bluetoothd for its bonds): then
                // the kernel resolves its addresses itself and connects only to a pending connection
                // under the identity address.
                broker.currentAddress = { [unowned self] identity in
                    let kernelResolves = pairingBluetoothd == true ? bluezPairing?.kernelResolves(identity)
                                                                   : pairing?.kernelResolves(identity)
                    return kernelResolves == true ? identity : discovery.currentAddress(of: identity)
                }
                service?.channels = broker
            }
            if configuration.bluetoothEnabled && servedCapture == nil { startPairing(on: loop, authorization: authorization) }
            defer { pairing?.detach() }
            if let monitor {
                discovery.onSighting { monitor.write($0) }
                // Lines go out together once the loop has handled what woke it.
                try loop.afterEachBusyIteration { monitor.flush() }
            }
            defer { monitor?.flush() }
            discovery.onPresence { [unowned self] _ in armPresenceTimer() }
            // Radios: the discovery components start here, on this loop.
            if configuration.wifiEnabled && servedCapture == nil {
                let wifi = WiFiDiscovery(loop: loop, discovery: discovery, configuration: configuration.wifi, logger: logger)
                self.wifi = wifi
                hotspots?.onHeldChanged = { [weak wifi] interface, held in wifi?.setHeldByJoin(interface, held) }
                if wifi.start(interfaces: radios.wifiInterfaces) {
                    // Hidden hotspots answer only probe requests that name them.
                    updateWiFiDemand()
                }
            }
            let bluetooth = configuration.bluetoothEnabled && servedCapture == nil ? BluetoothDiscovery(
                settings: configuration.bluetooth,
                scanType: BluetoothSettings.scanType(for: configuration.bluetooth.scanMode, apps: apps),
                pipeline: discovery, logger: logger) : nil
            bluetoothDiscovery = bluetooth
            bluetooth?.onStateChange = { [unowned self] in statusMayHaveChanged() }
            wifi?.onInterfacesChanged = { [unowned self] in statusMayHaveChanged() }
            bluetooth?.start(on: loop)
            defer { bluetooth?.stop() }  // leaves each controller's scan as it was found
            if let bluetooth, bluetooth.powersControllers { followBluetoothd(for: bluetooth) }

            sentStatus = readyStatus
            notifier.ready(status: readyStatus)
            logger.log(.daemonReady, level: .notice, "accessoryd is ready: \(readyStatus)")
            defer { captureInput?.stop() }
            return try loop.run()
        } catch {
            logger.critical("accessoryd cannot run: \(error)")
            return Self.exitFailure
        }
    }

    /// The status of the radios in use now, from the kernel's lists and the scans' activities.
    private func currentStatus() -> ServiceStatus {
        if let servedCapture { return ServiceStatus(bluetooth: nil, wifi: nil, capture: servedCapture.path) }
        let controllers = configuration.bluetoothEnabled
            ? ((try? BluetoothControllerInfo.all()) ?? radios.bluetoothControllers) : nil
        let wifiNames = configuration.wifiEnabled
            ? (wifi?.scannedInterfaces ?? radios.wifiInterfaces).map(\.name) : nil
        return ServiceStatus(controllers: controllers, activities: bluetoothDiscovery?.controllerActivities ?? [:],
                             settings: configuration.bluetooth, wifi: wifiNames)
    }

    /// Something STATUS= shows changed: tell systemd once the loop is done
    /// with what woke it (several changes at once make one update), and only
    /// when the text differs from what it was told.
    private func statusMayHaveChanged() {
        guard !statusUpdatePending, let loop else { return }
        statusUpdatePending = true
        loop.at(loop.now) { [unowned self] in
            statusUpdatePending = false
            guard !stopping else { return }
            let text = readyStatus
            guard text != sentStatus else { return }
            sentStatus = text
            notifier.status(text)
            logger.debug("Status: \(text)")
        }
    }

    /// bluetoothd's presence on the system bus decides who powers the
    /// controllers; without a bus there is no bluetoothd either.
    private func followBluetoothd(for bluetooth: BluetoothDiscovery) {
        guard let bus else {
            bluetooth.bluetoothdPresent(false)
            return
        }
        do {
            bluetoothdWatch = try BusNameWatch("org.bluez", on: bus) { [weak bluetooth] present in
                bluetooth?.bluetoothdPresent(present)
            }
        } catch {
            // Not knowing whether bluetoothd runs, accessoryd leaves power alone rather than risk a fight.
            logger.warning("Cannot follow bluetoothd on the system bus, so controllers are not powered: \(error)")
        }
    }

    private func loadGrants() {
        do {
            switch try grants.load() {
            case .loaded(let count):
                logger.info("Loaded \(count) grant(s)", metadata: ["grant_store": "\(grants.path)"])
            case .empty:
                break
            case .setAside(let reason, let aside):
                logger.log(.grantStoreSetAside, level: .error, "Grant store damaged (\(reason)); set aside as \(aside)",
                           metadata: ["grant_store": "\(grants.path)", "grant_store.set_aside": "\(aside)",
                                      "error": "\(reason)"])
            }
        } catch {
            logger.log(.grantStoreSetAside, level: .error, "Cannot read the grant store: \(error)",
                       metadata: ["grant_store": "\(grants.path)", "error": "\(error)"])
        }
    }

    private func loadBonds() {
        do {
            switch try bonds.load() {
            case .loaded(let count):
                logger.info("Loaded \(count) bond(s)", metadata: ["bond_store": "\(bonds.path)"])
            case .empty:
                break
            case .setAside(let reason, let aside):
                logger.error("Bond store damaged (\(reason)); set aside as \(aside)",
                             metadata: ["bond_store": "\(bonds.path)", "bond_store.set_aside": "\(aside)", "error": "\(reason)"])
            }
        } catch {
            logger.error("Cannot read the bond store: \(error)", metadata: ["bond_store": "\(bonds.path)", "error": "\(error)"])
        }
    }

    /// Setup pairs through the kernel's management interface when no
    /// bluetoothd runs, and through BlueZ's D-Bus API (an Agent1 of
    /// accessoryd's, Device1.Pair) beside it. Which of the two follows
    /// bluetoothd's name on the system bus, and the journal says it.
    private func startPairing(on loop: EventLoop, authorization: AuthorizationCenter) {
        authorization.pairingPolicy = configuration.pairingPolicy
        let controllers = { [unowned self] () -> [UInt16] in
            let settings = configuration.bluetooth
            return ((try? BluetoothControllerInfo.all()) ?? radios.bluetoothControllers)
                .filter { settings.shares(controller: $0.index) }
                .map(\.index)
        }
        do {
            pairing = try ManagementPairing.attached(to: loop, store: bonds, logger: logger, controllers: controllers)
        } catch where bus == nil {
            // Without a bus there is no bluetoothd either, and nothing else will say how setup pairs.
            logger.log(.pairingMode, level: .warning,
                       "Cannot open the kernel's Bluetooth management interface, so setups that need pairing fail: \(error)",
                       metadata: ["pairing.mode": "none", "error": "\(error)"])
        } catch {
            // The mode is said once bluetoothd's presence is known.
            logger.warning("Cannot open the kernel's Bluetooth management interface, so setups that need pairing without bluetoothd fail: \(error)",
                           metadata: ["error": "\(error)"])
        }
        if let bus {
            do {
                bluezPairing = try BluezPairing.attached(to: bus, scheduler: loop, store: bonds, logger: logger, controllers: controllers)
            } catch {
                logger.warning("Cannot serve the pairing agent for bluetoothd, so setups that need pairing beside it fail: \(error)")
            }
        }
        // bluetoothd's pairings are heard on the management socket too: their IRKs, for the bond's record.
        pairing?.identityLearned = { [weak bluezPairing] controller, random, identity, irk in
            bluezPairing?.identityLearned(controller: controller, randomAddress: random, identity: identity, irk: irk)
        }
        authorization.pairingBackEnd = pairing
        service?.channels?.requiredSecurity = { [weak self] accessory in
            guard let self else { return nil }
            return pairingBluetoothd == true ? bluezPairing?.requiredSecurity(for: accessory) : pairing?.requiredSecurity(for: accessory)
        }
        guard let bus, pairing != nil || bluezPairing != nil else { return }
        do {
            pairingWatch = try BusNameWatch("org.bluez", on: bus) { [unowned self] present in
                pairingMode(bluetoothd: present, authorization: authorization)
            }
        } catch {
            logger.log(.pairingMode, level: .warning,
                       "Cannot follow bluetoothd on the system bus, so setups that need pairing fail: \(error)",
                       metadata: ["pairing.mode": "none", "error": "\(error)"])
        }
    }

    private func pairingMode(bluetoothd present: Bool, authorization: AuthorizationCenter) {
        guard pairingBluetoothd != present else { return }
        pairingBluetoothd = present
        pairing?.bluetoothdPresent = present
        bluezPairing?.bluetoothd(present: present)
        if present {
            authorization.pairingBackEnd = bluezPairing
            if bluezPairing != nil {
                logger.log(.pairingMode, level: .notice,
                           "bluetoothd runs: setup pairs through BlueZ's D-Bus API, and bluetoothd keeps the keys",
                           metadata: ["pairing.mode": "bluez"])
            } else {
                logger.log(.pairingMode, level: .warning,
                           "bluetoothd runs but accessoryd cannot serve its pairing agent: setups that need pairing fail",
                           metadata: ["pairing.mode": "none"])
            }
        } else {
            authorization.pairingBackEnd = pairing
            if let pairing {
                logger.log(.pairingMode, level: .notice,
                           "No bluetoothd: setup pairs through the kernel's management interface; \(pairing.bonds.count) bond(s) loaded",
                           metadata: ["pairing.mode": "mgmt", "bonds": "\(pairing.bonds.count)"])
            } else {
                logger.log(.pairingMode, level: .warning,
                           "No bluetoothd, and no management interface: setups that need pairing fail",
                           metadata: ["pairing.mode": "none"])
            }
        }
    }

    /// The D-Bus API on the system bus. Returns whether it is offered; why
    /// not is logged, as an error when the API is required.
    private func startService(on loop: EventLoop, authorization: AuthorizationCenter) -> Bool {
        do {
            let bus = try BusConnection(loop: loop)
            // Before anything can close it: a lost bus is never silent.
            try bus.onDisconnected { [unowned self] in busLost() }
            try bus.requestName(BusNames.service)
            let service = try AccessoryService(
                connection: bus, logger: logger, apps: { [unowned self] in apps },
                manifestDirectories: appLoader.directoriesDescription,
                center: authorization, loop: loop)
            service.limits = configuration.limits
            self.service = service
            self.bus = bus
            startWaker(on: loop, bus: bus, service: service, authorization: authorization)
            return true
        } catch {
            if requiresBus {
                notifier.status("D-Bus API not available; exiting to be restarted")
                logger.log(.busUnavailable, level: .error,
                           "D-Bus API not available: \(error); exiting with status \(Self.exitBusLost) to be restarted",
                           metadata: ["error": "\(error)", "exit_status": "\(Self.exitBusLost)"])
            } else {
                logger.log(.busUnavailable, level: .warning, "D-Bus API not available: \(error); running on without it",
                           metadata: ["error": "\(error)"])
            }
            return false
        }
    }

    /// What the apps need the radios for (requests and granted accessories),
    /// as the authorization core last decided it.
    private var appDemand: AuthorizationDemand?

    /// Wi-Fi scans only while someone wants them: the monitor, the
    /// administrator's descriptors, or the apps (requests and granted accessories).
    private func updateWiFiDemand() {
        guard let wifi else { return }
        // Hidden hotspots answer only probe requests that name them.
        wifi.setProbeSSIDs(descriptorEntries.compactMap(\.descriptor.ssid) + (appDemand?.probeSSIDs ?? []))
        wifi.setDemand(monitor != nil || appDemand?.wifi == true || descriptorEntries.contains { $0.descriptor.describesWiFi })
    }

    /// When the next tracked accessory would be lost: one timer, re-armed on
    /// each presence change and each expiry, so an idle daemon sleeps.
    private var presenceTimer: (token: TimerToken, due: MonotonicInstant)?

    private func armPresenceTimer() {
        guard let loop, let deadline = discovery.nextDeadline else { return }
        if let current = presenceTimer {
            guard deadline < current.due else { return }
            loop.cancel(current.token)
        }
        // The pipeline reads the loop's clock (`EventLoop.clock`): the deadline arms as it is.
        let token = loop.at(deadline) { [unowned self] in
            presenceTimer = nil
            discovery.expire()
            armPresenceTimer()
        }
        presenceTimer = (token, deadline)
    }

    /// The bus connection closed under a running daemon. Staying up would
    /// leave accessoryd alive and unreachable (and `Restart=on-failure`
    /// would never fire), so it says so and exits non-zero: systemd starts a
    /// fresh process, which claims the name again. Grants are on disk; the
    /// sessions of the lost connection end with the process. Exiting, rather than reconnecting in
    /// place, leaves no half-torn state (tracks, agent, requests, channels)
    /// to reason about, and the unit's restart is what a system service
    /// has for exactly this.
    private func busLost() {
        // Already stopping on a signal: that exit status stands.
        guard !stopping else { return }
        stopping = true
        notifier.stopping()
        logger.log(.busLost, level: .critical,
                   "Lost the D-Bus connection; exiting with status \(Self.exitBusLost) to be restarted",
                   metadata: ["exit_status": "\(Self.exitBusLost)", "sessions": "\(service?.openSessions.count ?? 0)"])
        loop?.exit(code: Self.exitBusLost)
    }

    /// Set once the loop is told to exit, so a second cause does not change the status.
    private var stopping = false

    private func stop(signal: String) {
        stopping = true
        notifier.stopping()
        logger.log(.daemonStopping, level: .info, "Stopping on \(signal)", metadata: ["signal": "\(signal)"])
        loop?.exit(code: 0)
    }

    private func reload() {
        notifier.reloading()
        if let fresh = Self.loadConfiguration(sources) {
            configuration = fresh
            service?.limits = fresh.limits
            authorization?.pairingPolicy = fresh.pairingPolicy
            logger.logLevel = logLevelOverride ?? fresh.logLevel
            logger.log(.configurationReloaded, level: .notice, "Configuration reloaded",
                       metadata: ["config.file": "\(sources.mainFile)"])
        } else {
            logger.warning("Keeping the running configuration")
        }
        loadApps()
        waker?.manifestsLoaded()
        service?.resolveAdministratorGroup()
        if servedCapture == nil { radios = (try? RadioInventory.probe(configuration)) ?? radios }
        sentStatus = readyStatus
        notifier.ready(status: readyStatus)
    }

    /// The notices go to the service first (an app with a session hears there),
    /// then to the waker; wake sockets are checked with systemd now.
    private func startWaker(on loop: EventLoop, bus: BusConnection, service: AccessoryService, authorization: AuthorizationCenter) {
        let waker = AppWaker(
            logger: logger, scheduler: loop, apps: { [unowned self] in apps },
            appsWithSessions: { [weak service] in Set(service?.openSessions.filter { $0.state == .active }.map(\.app) ?? []) },
            resolve: AppWaker.systemdResolver(bus))
        waker.isObserved = { [weak authorization] id in authorization?.core.grants[id]?.observesPresence == true }
        let deliver = authorization.notify
        authorization.notify = { [weak waker] notice in
            deliver(notice)
            waker?.take(notice)
        }
        waker.manifestsLoaded()
        self.waker = waker
    }

    /// Reads the manifests; a refused file keeps only its own app out.
    private func loadApps() {
        let (catalog, unreadable) = appLoader.load()
        for error in catalog.errors {
            var metadata: Logger.Metadata = ["manifest.file": "\(error.source)"]
            if let line = error.line { metadata["manifest.line"] = "\(line)" }
            logger.log(.manifestInvalid, level: .error, "App manifest refused: \(error)", metadata: metadata)
        }
        for refusal in catalog.imageRefusals {
            logger.log(.manifestInvalid, level: .error, "Product image refused: \(refusal)", metadata: [
                "manifest.file": "\(refusal.manifest)", "manifest.key": "\(refusal.key)",
                "image.file": "\(refusal.image)", "image.error": "\(refusal.error.name)",
            ])
        }
        for error in unreadable {
            logger.log(.manifestInvalid, level: .error, "App manifest unreadable: \(error)")
        }
        apps = catalog
        let names = catalog.manifests.keys.sorted().map(\.description)
        logger.log(.appsLoaded, level: .info,
                   "\(names.count) app(s) may ask for accessories\(names.isEmpty ? "" : ": " + names.joined(separator: ", "))",
                   metadata: [
                    "apps": .array(names.map { .string($0) }),
                    "manifest.errors": "\(catalog.errors.count + unreadable.count)",
                   ])
    }

    private func logRadios(_ inventory: RadioInventory) {
        logger.log(.radiosProbed, level: .info,
                   "Found \(inventory.bluetoothControllers.count) Bluetooth controller(s) and \(inventory.wifiInterfaces.count) Wi-Fi interface(s)",
                   metadata: [
                    "bluetooth.controllers": "\(inventory.bluetoothControllers.count)",
                    "wifi.interfaces": "\(inventory.wifiInterfaces.count)",
                   ])
    }
}
