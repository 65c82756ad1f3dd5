import AccessoryCodecs
import AccessoryCore
import AccessoryDecisions
import AccessoryPlatform
import AccessoryRadios
import Glibc  // errno constants only
import Logging

/// Wi-Fi discovery on the daemon's event loop: scans the gateway's station
/// interfaces through nl80211 while something needs Wi-Fi, and feeds every
/// BSS heard into the discovery pipeline.
///
/// One `WiFiScanSchedule` per interface decides when; this class does what
/// it says and tells it what the kernel answered. A scan refused with EBUSY
/// (wpa_supplicant or iw already scanning) waits for that scan's results
/// instead of failing; anyone's completed scan is read while there is demand,
/// and postpones ours.
///
/// Logging: per scan and per BSS at debug only; interfaces coming and going,
/// and scans failing repeatedly (then recovering), once each, with MESSAGE_IDs.
public final class WiFiDiscovery {
    private unowned let loop: EventLoop
    private let discovery: DiscoveryPipeline
    private let configuration: WiFiDiscoveryConfiguration
    /// Where the scan schedule reads the time and arms its wake-ups: the loop's, or a test's manual one.
    private let scheduler: any Scheduler
    private var logger: Logger
    private var scanner: NL80211Scanner?
    private var watch: WatchToken?
    private var interfaces: [UInt32: Interface] = [:]
    private var demand = false
    private var probeSSIDs: [SSID] = []
    /// Interfaces a hotspot join holds: left alone meanwhile, since a scan
    /// would take the radio off the hotspot's channel during the join.
    private var heldByJoins: Set<String> = []

    private struct Interface {
        var info: WiFiInterfaceInfo
        var schedule: WiFiScanSchedule
        var timer: TimerToken?
        /// When the cache was last read, so a BSS not heard since is not reported twice.
        var lastRead: MonotonicInstant?
        /// Why the last scan failed, for the warning.
        var lastError: String?
        /// Whether "scans keep failing" was said, so it is said once and recovery is told.
        var failingReported = false
    }

    public init(
        loop: EventLoop, discovery: DiscoveryPipeline, configuration: WiFiDiscoveryConfiguration,
        logger: Logger, scheduler: (any Scheduler)? = nil
    ) {
        self.loop = loop
        self.discovery = discovery
        self.configuration = configuration
        self.logger = logger
        self.scheduler = scheduler ?? loop
    }

    /// Opens nl80211 and starts watching the interfaces. Returns false (after
    /// logging why, once) when the kernel has no nl80211: the rest of the
    /// daemon carries on without Wi-Fi.
    ///
    /// While it watches its socket the event loop keeps this object alive.
    @discardableResult
    public func start(interfaces initial: [WiFiInterfaceInfo]) -> Bool {
        do {
            guard let scanner = try NL80211Scanner.open(loop: loop, scheduler: scheduler) else {
                logger.log(.wifiUnavailable, level: .notice, "No nl80211 in this kernel: Wi-Fi discovery is off",
                           metadata: ["error": "nl80211 family not found"])
                return false
            }
            try start(scanner: scanner, interfaces: initial)
        } catch {
            logger.log(.wifiUnavailable, level: .warning, "Wi-Fi discovery cannot start: \(error)",
                       metadata: ["error": "\(error)"])
            scanner = nil
            return false
        }
        return true
    }

    /// With a scanner opened elsewhere (tests: over a socket pair playing the kernel).
    func start(scanner: NL80211Scanner, interfaces initial: [WiFiInterfaceInfo]) throws(SystemError) {
        watch = try loop.watch(fd: scanner.eventFileDescriptor) { [self] _ in handleEvents() }
        self.scanner = scanner
        for info in initial { add(info) }
    }

    /// Whether something needs Wi-Fi now: an app's request with a Wi-Fi
    /// descriptor, a Wi-Fi accessory granted to an app (its presence), or
    /// `--monitor`. Scans run only while it is true.
    public func setDemand(_ needed: Bool) {
        guard needed != demand else { return }
        demand = needed
        logger.debug("Wi-Fi scanning \(needed ? "needed" : "no longer needed")")
        for index in interfaces.keys { applyDemand(index) }
    }

    /// A hotspot join took `interface`, or gave it back.
    public func setHeldByJoin(_ interface: String, _ held: Bool) {
        guard held != heldByJoins.contains(interface) else { return }
        if held { heldByJoins.insert(interface) } else { heldByJoins.remove(interface) }
        logger.debug("\(interface) \(held ? "is held by a hotspot join: not scanned" : "is free again")")
        for (index, entry) in interfaces where entry.info.name == interface { applyDemand(index) }
    }

    private func applyDemand(_ index: UInt32) {
        guard let name = interfaces[index]?.info.name else { return }
        interfaces[index]?.schedule.setDemand(demand && !heldByJoins.contains(name))
        reschedule(index)
    }

    /// Exact SSIDs to name in probe requests (active scans only), so hidden
    /// networks answer: those of the descriptors that ask for an exact SSID.
    public func setProbeSSIDs(_ ssids: [SSID]) { probeSSIDs = ssids }

    /// Called when an interface was added or removed (for STATUS=).
    public var onInterfacesChanged: (() -> Void)?

    /// The interfaces being scanned, by index.
    public var scannedInterfaces: [WiFiInterfaceInfo] { interfaces.values.map(\.info).sorted { $0.index < $1.index } }

    // MARK: Interfaces

    private func isWanted(_ info: WiFiInterfaceInfo) -> Bool {
        configuration.interfaces.isEmpty ? info.isStation : configuration.interfaces.contains(info.name)
    }

    private func add(_ info: WiFiInterfaceInfo) {
        guard isWanted(info), interfaces[info.index] == nil else { return }
        var schedule = WiFiScanSchedule(configuration: configuration.schedule)
        schedule.setDemand(demand && !heldByJoins.contains(info.name))
        interfaces[info.index] = Interface(info: info, schedule: schedule)
        logger.log(.wifiInterfaceAppeared, level: .notice, "Wi-Fi interface \(info.name) will be scanned when needed",
                   metadata: ["wifi.interface": "\(info.name)", "wifi.ifindex": "\(info.index)"])
        reschedule(info.index)
        onInterfacesChanged?()
    }

    private func remove(index: UInt32) {
        guard let interface = interfaces.removeValue(forKey: index) else { return }
        defer { onInterfacesChanged?() }
        if let timer = interface.timer { scheduler.cancel(timer) }
        logger.log(.wifiInterfaceRemoved, level: .notice, "Wi-Fi interface \(interface.info.name) is gone",
                   metadata: ["wifi.interface": "\(interface.info.name)", "wifi.ifindex": "\(index)"])
    }

    /// After lost events: the kernel's list is the truth.
    private func resynchronizeInterfaces() {
        guard let current = try? WiFiInterfaceInfo.all() else { return }
        let present = Set(current.map(\.index))
        for index in interfaces.keys where !present.contains(index) { remove(index: index) }
        for info in current { add(info) }
    }

    // MARK: Events

    private func handleEvents() {
        guard let scanner else { return }
        let batch = scanner.readEvents()
        if batch.malformed > 0 { logger.debug("Ignored \(batch.malformed) malformed nl80211 event(s)") }
        for event in batch.events {
            switch event {
            case .scanStarted(let index):
                if interfaces[index] != nil { logger.debug("Scan started on ifindex \(index)") }
            case .scanResultsReady(let index):
                guard let read = interfaces[index]?.schedule.resultsReady(at: scheduler.now) else { continue }
                if read { readResults(index) }
                noteRecovery(index)
                reschedule(index)
            case .scanAborted(let index):
                guard interfaces[index] != nil else { continue }
                logger.debug("Scan aborted on ifindex \(index)")
                interfaces[index]?.schedule.aborted(at: scheduler.now)
                interfaces[index]?.lastError = "the scan was aborted"
                noteFailure(index)
                reschedule(index)
            case .interfaceAdded(let info):
                add(info)
            case .interfaceRemoved(let index):
                remove(index: index)
            }
        }
        if batch.lostEvents {
            // A scan's completion may be among them: the schedule's timeout
            // reads the cache anyway. Interfaces are listed afresh.
            logger.debug("nl80211 events were lost; listing the interfaces again")
            resynchronizeInterfaces()
        }
    }

    // MARK: Scanning

    private func reschedule(_ index: UInt32) {
        guard var interface = interfaces[index] else { return }
        if let timer = interface.timer { scheduler.cancel(timer) }
        interface.timer = nil
        if let wakeUp = interface.schedule.wakeUp {
            interface.timer = scheduler.at(wakeUp) { [weak self] in self?.timerFired(index) }
        }
        interfaces[index] = interface
    }

    private func timerFired(_ index: UInt32) {
        guard let name = interfaces[index]?.info.name else { return }
        interfaces[index]?.timer = nil
        switch interfaces[index]?.schedule.tick(at: scheduler.now) ?? .nothing {
        case .nothing:
            break
        case .trigger:
            trigger(index)
        case .readCacheAfterTimeout:
            logger.debug("No scan results on \(name) in time; reading the cache",
                         metadata: event("results-timeout", name))
            interfaces[index]?.lastError = "no scan results in time"
            readResults(index)
            noteFailure(index)
        }
        reschedule(index)
    }

    /// Sends TRIGGER_SCAN; the kernel's answer comes back on the loop (`triggered`).
    private func trigger(_ index: UInt32) {
        guard let scanner, interfaces[index] != nil else { return }
        let probing: NL80211ScanRequest.Probing =
            configuration.scanType == .active ? .active(ssids: probeSSIDs) : .passive
        let request = NL80211ScanRequest(
            interfaceIndex: index, probing: probing, frequenciesMHz: configuration.frequenciesMHz)
        scanner.trigger(request) { [weak self] outcome in self?.triggered(index, request, outcome) }
    }

    private func triggered(
        _ index: UInt32, _ request: NL80211ScanRequest, _ outcome: Result<NL80211Scanner.TriggerOutcome, NL80211RequestError>
    ) {
        // The interface may have gone while the kernel answered.
        guard let scanner, let name = interfaces[index]?.info.name else { return }
        switch outcome {
        case .success(.started):
            logger.debug("Scan started on \(name)", metadata: event("scan-started", name))
        case .success(.busy):
            logger.debug("\(name) is busy scanning for someone else; waiting for that scan's results",
                         metadata: event("radio-busy", name))
            interfaces[index]?.schedule.radioBusy(at: scheduler.now)
            reschedule(index)
        case .failure(let error) where error.errno == EINVAL && request.probing != .active(ssids: [])
            && configuration.scanType == .active:
            // More SSIDs than the driver can probe for in one scan: the wildcard alone.
            var wildcard = request
            wildcard.probing = .active(ssids: [])
            scanner.trigger(wildcard) { [weak self] outcome in self?.triggered(index, wildcard, outcome) }
        case .failure(let error):
            logger.debug("Scan on \(name) refused: \(error)", metadata: event("scan-refused", name))
            interfaces[index]?.schedule.triggerFailed(at: scheduler.now)
            interfaces[index]?.lastError = "\(error)"
            noteFailure(index)
            reschedule(index)
        }
    }

    /// Asks for the kernel's BSS cache; what was heard since the last read is
    /// recorded when the dump has arrived (`resultsRead`).
    private func readResults(_ index: UInt32) {
        guard let scanner, interfaces[index] != nil else { return }
        // seen_ms_ago is counted from when the kernel makes the dump: now, give or take.
        let requested = scheduler.now
        scanner.scanResults(interfaceIndex: index) { [weak self] outcome in self?.resultsRead(index, requested, outcome) }
    }

    private func resultsRead(_ index: UInt32, _ requested: MonotonicInstant, _ outcome: Result<NL80211Scanner.Dump, NL80211RequestError>) {
        guard let interface = interfaces[index] else { return }
        let dump: NL80211Scanner.Dump
        switch outcome {
        case .success(let value): dump = value
        case .failure(let error):
            logger.debug("Cannot read scan results of \(interface.info.name): \(error)",
                         metadata: event("results-unread", interface.info.name))
            return
        }
        let sincePreviousRead = interface.lastRead.map { requested.duration(since: $0) }
        interfaces[index]?.lastRead = requested
        var recorded = 0
        for result in dump.results {
            var network = result.network
            if network.interfaceIndex == nil { network.interfaceIndex = index }
            if let sincePreviousRead, let seen = network.seenMillisecondsAgo,
                Duration.milliseconds(Int64(seen)) >= sincePreviousRead
            {
                continue  // reported by the previous read already
            }
            logger.trace("BSS \(network.bssid) \(network.ssid.displayName) on \(network.frequencyMHz) MHz")
            discovery.record(network)
            recorded += 1
        }
        var metadata = event("results-read", interface.info.name)
        metadata["wifi.bsses"] = "\(dump.results.count)"
        metadata["wifi.malformed"] = "\(dump.malformed.count)"
        metadata["wifi.interrupted"] = "\(dump.interrupted)"
        if dump.dropped > 0 { metadata["wifi.dropped"] = "\(dump.dropped)" }
        logger.debug("Read \(dump.results.count) BSS(es) on \(interface.info.name), \(recorded) new", metadata: metadata)
    }

    private func noteFailure(_ index: UInt32) {
        guard let interface = interfaces[index], interface.schedule.isFailing, !interface.failingReported else { return }
        interfaces[index]?.failingReported = true
        let reason = interface.lastError ?? "unknown"
        logger.log(.wifiScansFailing, level: .warning,
                   "Wi-Fi scans on \(interface.info.name) keep failing (\(reason)); retrying less often",
                   metadata: ["wifi.interface": "\(interface.info.name)", "error": "\(reason)",
                              "wifi.failures": "\(interface.schedule.consecutiveFailures)"])
    }

    private func noteRecovery(_ index: UInt32) {
        guard let interface = interfaces[index], interface.schedule.consecutiveFailures == 0 else { return }
        interfaces[index]?.lastError = nil
        guard interface.failingReported else { return }
        interfaces[index]?.failingReported = false
        logger.log(.wifiScansRecovered, level: .notice, "Wi-Fi scans on \(interface.info.name) work again",
                   metadata: ["wifi.interface": "\(interface.info.name)"])
    }

    /// Debug entries carry WIFI_EVENT, so the lab and an operator's
    /// `journalctl WIFI_EVENT=radio-busy` find them without parsing text.
    private func event(_ name: String, _ interface: String) -> Logger.Metadata {
        ["wifi.event": .string(name), "wifi.interface": .string(interface)]
    }
}
