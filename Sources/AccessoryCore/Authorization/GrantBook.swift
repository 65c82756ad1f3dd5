/// The grants as the authorization core sees them. The daemon's adapter
/// persists every change the core decides (through the grant store) before
/// the core takes it, so this is always what is on disk.
public struct GrantBook: Sendable {
    public private(set) var all: [AccessoryID: Grant]
    /// Every device heard asks whether it is granted: a lookup, not a walk.
    private var byIdentity: [DeviceIdentity: AccessoryID] = [:]

    public init(_ grants: [AccessoryID: Grant] = [:]) {
        all = grants
        for grant in grants.values { index(grant) }
    }

    public subscript(id: AccessoryID) -> Grant? { all[id] }

    public var isEmpty: Bool { all.isEmpty }

    /// The grant of the device `identity` names, whichever app holds it.
    public func holder(of identity: DeviceIdentity) -> Grant? { byIdentity[identity].flatMap { all[$0] } }

    public func grants(of app: AppID) -> [Grant] {
        all.values.filter { $0.app == app }.sorted { $0.accessory < $1.accessory }
    }

    /// An accessory as its app (or, with `app` nil, the administrator) may
    /// touch it; anyone else's is "unknown", never "not yours".
    public func owned(_ id: AccessoryID, by app: AppID?) throws(AccessorySetupError) -> Grant {
        guard let grant = all[id], app == nil || grant.app == app else {
            throw AccessorySetupError(.invalidRequest, reason: .message("unknown accessory \(id)"))
        }
        return grant
    }

    mutating func save(_ grant: Grant) {
        // A renamed SSID: the old one no longer names this accessory.
        if let old = all[grant.accessory], let identity = DeviceIdentity(old), byIdentity[identity] == grant.accessory {
            byIdentity[identity] = nil
        }
        all[grant.accessory] = grant
        index(grant)
    }

    mutating func remove(_ id: AccessoryID) {
        guard let old = all.removeValue(forKey: id) else { return }
        if let identity = DeviceIdentity(old), byIdentity[identity] == id { byIdentity[identity] = nil }
    }

    private mutating func index(_ grant: Grant) {
        if let identity = DeviceIdentity(grant) { byIdentity[identity] = grant.accessory }
    }
}

/// A change to the grants the adapter must make durable before the core's
/// new state is kept; a failed write keeps the old state and fails the call.
public enum GrantWrite: Hashable, Sendable {
    case save(Grant)
    /// Several grants in one write (a migration): all or none.
    case saveAll([Grant])
    case remove(AccessoryID)
}

/// New accessory ids: random, never 0 and never one in use. The core holds
/// the generator so it stays pure; the daemon seeds it from the system's
/// randomness, a test with a fixed number.
public struct AccessoryIDGenerator: Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    mutating func next(avoiding grants: GrantBook) -> AccessoryID {
        while true {
            // SplitMix64: every seed gives a full-period, well-mixed sequence.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            let id = AccessoryID(z ^ (z >> 31))
            if id.rawValue != 0, grants[id] == nil { return id }
        }
    }
}
