import AccessoryCodecs
import AccessoryCore
import AccessoryPlatform

/// The bonds of accessories accessoryd paired itself (no bluetoothd), beside
/// the grants in the state directory, with the same guarantees: a write is
/// atomic and durable before it returns (`AtomicFile`: a temporary file,
/// fsynced, renamed, the directory fsynced), and the file is mode 0600, as it
/// holds keys. A damaged file is set aside, never half-loaded.
public final class BondStore {
    public let path: String
    public let directory: String

    private static let sizeLimit = 4 << 20

    /// What `load` found, for the daemon to report.
    public enum LoadOutcome: Equatable, Sendable {
        case loaded(count: Int)
        case empty
        /// The file was unusable; it was moved to `setAsideAs` and the store starts empty.
        case setAside(reason: BondStoreError, setAsideAs: String)
    }

    /// Told every bond after each write (a pairing saved one, a removal
    /// dropped one): how the daemon's resolution of private addresses follows
    /// the store without anyone having to remember to tell it.
    public var onChange: (([AccessoryID: Bond]) -> Void)?

    public init(directory: String = DaemonDirectories.state) {
        self.directory = directory
        path = directory + "/bonds"
    }

    /// What the store holds on disk now, read afresh; empty when there is none or it cannot be read.
    public var bonds: [AccessoryID: Bond] {
        guard let bytes = try? FileSystem.readFileIfPresent(path, limit: Self.sizeLimit),
              let loaded = try? BondStoreCodec.decode(bytes) else { return [:] }
        return Dictionary(loaded.map { ($0.accessory, $0) }) { first, _ in first }
    }

    public func load() throws(SystemError) -> LoadOutcome {
        // A write a crash or power cut interrupted leaves its temporary file; the store is the renamed one.
        AtomicFile.removeLeftovers(of: path)
        guard let bytes = try FileSystem.readFileIfPresent(path, limit: Self.sizeLimit) else { return .empty }
        do throws(BondStoreError) {
            return .loaded(count: try BondStoreCodec.decode(bytes).count)
        } catch {
            return .setAside(reason: error, setAsideAs: try AtomicFile.setAsideAsCorrupt(path))
        }
    }

    /// Makes `all` the store, durable before returning; on failure nothing changes.
    public func write(_ all: [AccessoryID: Bond]) throws(SystemError) {
        try DaemonDirectories.ensure(directory)
        try AtomicFile.replace(path, with: BondStoreCodec.encode(Array(all.values)), mode: 0o600)
        onChange?(all)
    }

    /// Adds or replaces the bond of one accessory (its pairing finished).
    public func save(_ bond: Bond) throws(SystemError) {
        var next = bonds
        next[bond.accessory] = bond
        try write(next)
    }

    /// Removes the bond of one accessory (its grant removed); nothing when it has none.
    public func remove(_ accessory: AccessoryID) throws(SystemError) {
        var next = bonds
        guard next.removeValue(forKey: accessory) != nil else { return }
        try write(next)
    }
}
