import AccessoryWire

/// What `org.accessoryagent.Admin1` reports, as plain values: the commands
/// and the formatting work on these, never on bus messages.

/// A setup request waiting for a decision (`ListRequests`).
struct PendingRequest: Equatable {
    var number: UInt32
    var app: String
    /// `picker`, or `migration` (approved as a whole, with candidate 0).
    var kind: String
    /// The names of the display items the app asks for.
    var items: [String]
    var candidateCount: UInt32
    /// Each item's product image path, parallel to `items` ("" for none).
    var images: [String] = []
    /// Seconds until discovery gives up; nil when it does not.
    var secondsLeft: Int32? = nil

    var isMigration: Bool { kind == WireRequestRow.migrationKind }
}

/// A device found for a request (`ListCandidates`).
struct Candidate: Equatable {
    var number: UInt32
    /// The display item it matched.
    var item: String
    /// The name the device gives itself (may be empty).
    var name: String
    /// `bluetooth` or `wifi`.
    var kind: String
    /// Its Bluetooth address, or its SSID.
    var identity: String
    var rssi: Int32
}

/// A request together with its candidates at the time they were listed.
struct RequestWithCandidates: Equatable {
    var request: PendingRequest
    var candidates: [Candidate]

    /// Whether a decision can be made on it now: a migration always, a
    /// picker once something was found.
    var isReady: Bool { request.isMigration || !candidates.isEmpty }
}

/// An authorized (or pending) accessory (`ListAccessories`).
struct AccessorySummary: Equatable {
    var id: String
    var app: String
    var name: String
    var state: String
    var identity: String
    var present: Bool
    /// nil: not heard since accessoryd started.
    var secondsSinceHeard: Int?
}

/// Accessory ids and their object paths (`/org/accessoryagent/accessory/ID`).
enum AccessoryPath {
    static let prefix = BusNames.accessories + "/"

    /// The id in a path; a bare id as it is.
    static func id(_ pathOrID: String) -> String {
        pathOrID.hasPrefix(prefix) ? String(pathOrID.dropFirst(prefix.count)) : pathOrID
    }
}
