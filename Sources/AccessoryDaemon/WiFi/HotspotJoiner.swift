import AccessoryCodecs
import AccessoryCore
import AccessoryPlatform
import AccessoryRadios
import Logging

/// Joins accessories' hotspots, and puts the interface back on its previous
/// network afterwards, or on the next start after a crash
/// (`recoverAfterCrash`). At most one join per interface.
///
/// The route is chosen per join (`HotspotJoinRoute`, said in the journal):
/// through NetworkManager (`NetworkManagerJoin`) when its run state says it
/// manages the interface, else through the interface's wpa_supplicant.
///
/// Steps of a join through wpa_supplicant: refuse one whose wpa_supplicant
/// cannot be reached (at once, by throwing); then, on the
/// event loop, one reply at a time (`HotspotJoin`): snapshot the networks
/// (LIST_NETWORKS); ADD_NETWORK; write the crash-recovery record; SET_NETWORK
/// ssid (hex), the credential, scan_ssid; ATTACH; SELECT_NETWORK; then the
/// state machine follows the events, the DHCP client starts once the link is
/// up, and the result goes to `completion`. Nothing here waits for
/// wpa_supplicant while the loop runs; `recoverAfterCrash()` (before the loop)
/// and `leaveAll()` (when it stops) do, bounded per request.
public final class HotspotJoiner {
    public let settings: HotspotJoinSettings
    private let loop: EventLoop
    /// Where the joins read the time and arm their timers: the loop's, or a test's manual one.
    private let scheduler: any Scheduler
    private let logger: Logger
    private var joins: [String: any ActiveHotspotJoin] = [:] {
        didSet {
            for name in Set(joins.keys).symmetricDifference(oldValue.keys) { onHeldChanged(name, joins[name] != nil) }
        }
    }
    /// An interface was taken by a join, or given back (for Wi-Fi discovery,
    /// which leaves a held interface alone).
    public var onHeldChanged: (_ interface: String, _ held: Bool) -> Void = { _, _ in }

    public init(loop: EventLoop, settings: HotspotJoinSettings = HotspotJoinSettings(),
                scheduler: (any Scheduler)? = nil, logger: Logger = Logger(label: "accessoryd")) {
        self.loop = loop
        self.settings = settings
        self.scheduler = scheduler ?? loop
        self.logger = logger
    }

    /// The join in progress or active on `interface`, if any.
    public func join(on interface: String) -> (any ActiveHotspotJoin)? { joins[interface] }

    /// The system-bus connection the NetworkManager route talks over, made at its first use.
    private var networkManager: NetworkManagerClient?

    private func networkManagerClient() throws(SystemError) -> NetworkManagerClient {
        if let networkManager { return networkManager }
        let connection = try BusConnection(address: settings.networkManagerBusAddress, loop: loop)
        let client = NetworkManagerClient(connection: connection, timeout: settings.networkManagerRequestTimeout)
        networkManager = client
        return client
    }

    /// Starts joining `ssid` on `interface`. Throws before changing anything when the
    /// join cannot start; otherwise `completion` gets the result once, within the
    /// policy's timeout. A result other than `.joined` has already been undone.
    @discardableResult
    public func join(
        ssid: SSID, credential: WPACredential, interface: String,
        completion: @escaping (HotspotJoinResult) -> Void
    ) throws(HotspotJoinError) -> any ActiveHotspotJoin {
        guard Self.isPlainInterfaceName(interface) else { throw .invalidInterfaceName(interface) }
        guard joins[interface] == nil else { throw .alreadyJoined(interface: interface) }
        let managed: Bool
        do {
            managed = try NetworkManagerDeviceState.manages(interface, directory: settings.networkManagerDirectory)
            try DaemonDirectories.ensure(settings.runtimeDirectory)
        } catch {
            throw .system(error)
        }
        let route = HotspotJoinRoute.choose(networkManagerManages: managed)
        logger.log(.hotspotJoinRoute, level: .notice, "Hotspot join on \(interface) through \(route)",
                   metadata: ["wifi.interface": "\(interface)", "wifi.join_route": "\(route)"])
        if route == .networkManager {
            return try joinThroughNetworkManager(ssid: ssid, credential: credential, interface: interface, completion: completion)
        }

        let client: WPASupplicantClient
        do {
            client = try WPASupplicantClient(
                interface: interface, controlDirectory: settings.controlDirectory,
                runtimeDirectory: settings.runtimeDirectory, requestTimeout: settings.requestTimeout, loop: loop,
                scheduler: scheduler)
        } catch {
            throw .wpaSupplicant(interface: interface, .system(error))
        }

        let dhcp = DHCPClientProcess(interface: interface, runtimeDirectory: settings.runtimeDirectory, program: settings.dhcpProgram)
        let stateDirectory = settings.stateDirectory
        let recordPath = "\(stateDirectory)/\(JoinRecord.fileName(interface: interface))"
        let join = HotspotJoin(
            loop: loop, scheduler: scheduler, client: client, ssid: ssid, credential: credential,
            controlDirectory: settings.controlDirectory, recordPath: recordPath,
            writeRecord: { record throws(SystemError) in
                try DaemonDirectories.ensure(stateDirectory)
                try AtomicFile.replace(recordPath, with: record.encoded)
            },
            machine: HotspotJoinStateMachine(interface: interface, policy: settings.policy, clock: scheduler),
            dhcp: dhcp, logger: logger, completion: completion)
        joins[interface] = join
        join.whenLeft { [weak self] in self?.joins[interface] = nil }
        join.start()
        return join
    }

    private func joinThroughNetworkManager(
        ssid: SSID, credential: WPACredential, interface: String, completion: @escaping (HotspotJoinResult) -> Void
    ) throws(HotspotJoinError) -> any ActiveHotspotJoin {
        let client: NetworkManagerClient
        do { client = try networkManagerClient() } catch { throw .networkManager(interface: interface, .system("\(error)")) }
        let stateDirectory = settings.stateDirectory
        let recordPath = "\(stateDirectory)/\(NetworkManagerJoinRecord.fileName(interface: interface))"
        let join = NetworkManagerJoin(
            loop: loop, scheduler: scheduler, client: client, interface: interface, ssid: ssid, credential: credential, recordPath: recordPath,
            writeRecord: { record throws(SystemError) in
                try DaemonDirectories.ensure(stateDirectory)
                try AtomicFile.replace(recordPath, with: record.encoded)
            },
            timeout: settings.networkManagerJoinTimeout,
            machine: NetworkManagerJoinStateMachine(interface: interface, timeout: settings.networkManagerJoinTimeout, clock: scheduler),
            logger: logger, completion: completion)
        joins[interface] = join
        join.whenLeft { [weak self] in self?.joins[interface] = nil }
        join.start()
        return join
    }

    /// Ends the join on `interface`, if there is one, and restores its previous network.
    public func leave(interface: String) { joins[interface]?.leave() }

    /// Ends every join and waits for wpa_supplicant to restore the previous
    /// networks: for when the loop has stopped or is about to (the daemon or
    /// `--join-hotspot` exiting), never while it serves.
    public func leaveAll() { for join in Array(joins.values) { join.leaveBlocking() } }

    /// At start: undoes what joins interrupted by a crash left behind, from their
    /// records under the state directory. A record whose interface's wpa_supplicant
    /// cannot be reached is kept for the next start.
    public func recoverAfterCrash() {
        // ".nm-record" does not end in ".record": listed on its own.
        for name in (try? FileSystem.entries(of: settings.stateDirectory, withSuffix: NetworkManagerJoinRecord.suffix)) ?? []
        where name.hasPrefix("hotspot-join-") {
            recoverNetworkManagerJoin(at: "\(settings.stateDirectory)/\(name)")
        }
        guard let names = try? FileSystem.entries(of: settings.stateDirectory, withSuffix: ".record") else { return }
        for name in names where name.hasPrefix("hotspot-join-") {
            let path = "\(settings.stateDirectory)/\(name)"
            guard let bytes = try? FileSystem.readFileIfPresent(path, limit: 4096) else { continue }
            guard let record = try? JoinRecord(decoding: bytes) else {
                logger.warning("Ignoring an unreadable hotspot join record \(path)")
                try? AtomicFile.setAside(path, as: path + ".unreadable")
                continue
            }
            if restore(record) {
                try? DaemonDirectories.remove(path)
                logger.notice("Restored \(record.interface)'s previous network after an interrupted hotspot join",
                              metadata: ["wifi.interface": "\(record.interface)", "wifi.event": "hotspot-recovered"])
            }
        }
    }

    /// A join through NetworkManager a crash interrupted: its profile found by
    /// uuid and deleted, the uplink activated again. Kept for the next start
    /// when NetworkManager cannot be asked now.
    private func recoverNetworkManagerJoin(at path: String) {
        guard let bytes = try? FileSystem.readFileIfPresent(path, limit: 4096) else { return }
        guard let record = try? NetworkManagerJoinRecord(decoding: bytes) else {
            logger.warning("Ignoring an unreadable hotspot join record \(path)")
            try? AtomicFile.setAside(path, as: path + ".unreadable")
            return
        }
        let client: NetworkManagerClient
        do { client = try networkManagerClient() } catch {
            logger.warning("Cannot reach NetworkManager to undo an interrupted hotspot join on \(record.interface) yet: \(error)")
            return
        }
        client.blocking = true
        defer { client.blocking = false }
        NetworkManagerJoinCleanup(client: client, record: record, scheduler: nil).run { [logger] outcome in
            if case .failed(let reason) = outcome {
                logger.warning("Cannot undo an interrupted hotspot join on \(record.interface) yet: \(reason)",
                               metadata: ["wifi.interface": "\(record.interface)", "wifi.event": "hotspot-recovery-failed"])
                return
            }
            try? DaemonDirectories.remove(path)
            let uplink = switch outcome {
            case .restored: "is active again"
            case .uplinkNotBack(let reason): "is not active (\(reason)); NetworkManager's autoconnect brings it back"
            case .noUplink, .failed: "was not there to restore"
            }
            logger.notice("Removed the hotspot profile \(record.profileUUID) an interrupted join left in NetworkManager; \(record.interface)'s uplink \(uplink)",
                          metadata: ["wifi.interface": "\(record.interface)", "wifi.event": "hotspot-recovered"])
        }
    }

    private func restore(_ record: JoinRecord) -> Bool {
        DHCPClientProcess.stopLeftover(pidFile: record.dhcpPIDFile)
        do {
            try DaemonDirectories.ensure(settings.runtimeDirectory)
            let client = try WPASupplicantClient(
                interface: record.interface, controlDirectory: record.controlDirectory,
                runtimeDirectory: settings.runtimeDirectory)
            // Remove the temporary network only if it is still ours (ids are reused after a restart).
            if let ssid = try? client.ssid(of: record.temporaryNetwork), ssid == record.temporarySSID {
                try client.perform(.removeNetwork(record.temporaryNetwork))
            }
            for command in record.previous.restoreCommands { try client.perform(command) }
            return true
        } catch {
            logger.warning("Cannot restore \(record.interface) after an interrupted hotspot join yet: \(error)",
                           metadata: ["wifi.interface": "\(record.interface)", "wifi.event": "hotspot-recovery-failed"])
            return false
        }
    }

    /// Letters, digits, `.`, `-`, `_`; 1 to 15 characters (IFNAMSIZ − 1). Safe in
    /// paths, scripts and socket names.
    public static func isPlainInterfaceName(_ name: String) -> Bool {
        (1...15).contains(name.utf8.count) && name != "." && name != ".."
            && name.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            }
    }
}
