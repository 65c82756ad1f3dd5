import AccessoryCodecs
import AccessoryCore
import AccessoryPlatform

/// The grants on disk, under the state directory (/var/lib/accessoryd).
/// A write returns only once the new store is durable, so a grant is
/// acknowledged to an app only after it would survive a power cut. It keeps
/// no copy in memory: the authorization core's grants are the one copy, and
/// the center writes them here whole after every change.
public final class GrantStore {
    public let path: String
    /// The state directory; made on the first write when accessoryd runs
    /// outside systemd (which makes it from StateDirectory=).
    public let directory: String
    /// What the store holds on disk now, read afresh: for the center's start
    /// (after `load`) and for tests. Empty when there is no store, or it
    /// cannot be read (`load` reports and sets aside a damaged one).
    public var grants: [AccessoryID: Grant] {
        guard let bytes = try? FileSystem.readFileIfPresent(path, limit: Self.sizeLimit),
              let loaded = try? GrantStoreCodec.decode(bytes) else { return [:] }
        return Dictionary(loaded.map { ($0.accessory, $0) }) { first, _ in first }
    }

    private static let sizeLimit = 16 << 20

    /// What `load` found, for the daemon to report.
    public enum LoadOutcome: Equatable, Sendable {
        case loaded(count: Int)
        case empty
        /// The file was unusable; it was moved to `setAsideAs` and the store starts empty.
        case setAside(reason: GrantStoreError, setAsideAs: String)
    }

    public init(directory: String = DaemonDirectories.state) {
        self.directory = directory
        path = directory + "/grants"
    }

    /// Reads the store. A damaged file is never half-loaded: it is moved
    /// aside (kept for the administrator) and the store starts empty.
    public func load() throws(SystemError) -> LoadOutcome {
        // A write a crash or power cut interrupted leaves its temporary file; the store is the renamed one.
        AtomicFile.removeLeftovers(of: path)
        guard let bytes = try FileSystem.readFileIfPresent(path, limit: Self.sizeLimit) else { return .empty }
        do throws(GrantStoreError) {
            let loaded = try GrantStoreCodec.decode(bytes)
            return .loaded(count: Set(loaded.map(\.accessory)).count)
        } catch {
            return .setAside(reason: error, setAsideAs: try AtomicFile.setAsideAsCorrupt(path))
        }
    }

    /// Makes `all` the store, durable before returning: what the center
    /// writes after each change its core decides. On failure nothing changes.
    public func write(_ all: [AccessoryID: Grant]) throws(SystemError) {
        try DaemonDirectories.ensure(directory)
        try AtomicFile.replace(path, with: GrantStoreCodec.encode(Array(all.values)))
    }

    /// Adds or replaces one grant in what is on disk (a store made by hand:
    /// tests, a migration's fixture). On failure nothing changes.
    public func save(_ grant: Grant) throws(SystemError) {
        var next = grants
        next[grant.accessory] = grant
        try write(next)
    }

    /// Removes one grant from what is on disk; nothing when it is not there.
    public func remove(_ accessory: AccessoryID) throws(SystemError) {
        var next = grants
        guard next.removeValue(forKey: accessory) != nil else { return }
        try write(next)
    }
}
