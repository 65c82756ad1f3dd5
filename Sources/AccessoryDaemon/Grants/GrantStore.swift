import AccessoryCodecs
import AccessoryCore
import AccessoryPlatform

/// The grants on disk, under the state directory (/var/lib/accessoryd).
/// `save` returns only once the new store is durable, so a grant is
/// acknowledged to an app only after it would survive a power cut.
public final class GrantStore {
    public let path: String
    /// The state directory; made on the first write when accessoryd runs
    /// outside systemd (which makes it from StateDirectory=).
    public let directory: String
    public private(set) var grants: [AccessoryID: Grant] = [:] {
        didSet {
            byIdentity = [:]
            for grant in grants.values {
                if let identity = DeviceIdentity(grant) { byIdentity[identity] = grant.accessory }
            }
        }
    }
    /// Every advertisement heard asks whether its device is granted: a
    /// lookup, not a walk over the grants (rebuilt on each rare write).
    private var byIdentity: [DeviceIdentity: AccessoryID] = [:]

    /// The grant of the device `identity` names, if any app holds it.
    public func grant(for identity: DeviceIdentity) -> Grant? { byIdentity[identity].flatMap { grants[$0] } }

    /// What `load` found, for the daemon to report.
    public enum LoadOutcome: Equatable, Sendable {
        case loaded(count: Int)
        case empty
        /// The file was unusable; it was moved to `setAsideAs` and the store starts empty.
        case setAside(reason: GrantStoreError, setAsideAs: String)
    }

    public init(directory: String = AgentDirectories.state) {
        self.directory = directory
        path = directory + "/grants"
    }

    /// Reads the store. A damaged file is never half-loaded: it is moved
    /// aside (kept for the administrator) and the store starts empty.
    public func load() throws(SystemError) -> LoadOutcome {
        // A write a crash or power cut interrupted leaves its temporary file; the store is the renamed one.
        AtomicFile.removeLeftovers(of: path)
        guard let bytes = try FileSystem.readFileIfPresent(path, limit: 16 << 20) else {
            grants = [:]
            return .empty
        }
        do throws(GrantStoreError) {
            let loaded = try GrantStoreCodec.decode(bytes)
            grants = Dictionary(loaded.map { ($0.accessory, $0) }) { first, _ in first }
            return .loaded(count: grants.count)
        } catch {
            var aside = "\(path).corrupt"
            var attempt = 1
            while FileSystem.exists(aside) {
                attempt += 1
                aside = "\(path).corrupt-\(attempt)"
            }
            try AtomicFile.setAside(path, as: aside)
            grants = [:]
            return .setAside(reason: error, setAsideAs: aside)
        }
    }

    /// Adds or replaces a grant and makes the store durable before returning.
    /// On failure nothing changes, in memory or on disk.
    public func save(_ grant: Grant) throws(SystemError) {
        var next = grants
        next[grant.accessory] = grant
        try AgentDirectories.ensure(directory)
        try AtomicFile.replace(path, with: GrantStoreCodec.encode(Array(next.values)))
        grants = next
    }

    /// Replaces every grant at once (a migration adds several in one write).
    public func replaceAll(_ next: [AccessoryID: Grant]) throws(SystemError) {
        try AgentDirectories.ensure(directory)
        try AtomicFile.replace(path, with: GrantStoreCodec.encode(Array(next.values)))
        grants = next
    }

    public func remove(_ accessory: AccessoryID) throws(SystemError) {
        guard grants[accessory] != nil else { return }
        var next = grants
        next.removeValue(forKey: accessory)
        try AtomicFile.replace(path, with: GrantStoreCodec.encode(Array(next.values)))
        grants = next
    }
}
