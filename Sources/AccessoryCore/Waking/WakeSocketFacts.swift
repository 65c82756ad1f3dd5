/// What systemd says of an app's `WakeSocket=` unit and the service it
/// starts (read over systemd's D-Bus API, which answers any caller), and
/// whether that makes it the app's own: loaded, one stream socket on a
/// path, no per-connection instances, and a service that runs as the
/// manifest's `User=` (and is its `Unit=` when the manifest names one).
public struct WakeSocketFacts: Hashable, Sendable {
    public var loadState: String
    /// `Listen=`: (type, address) pairs, as systemd reports them (`Stream`, `/run/…`).
    public var listen: [(type: String, address: String)]
    public var accept: Bool
    /// The units it triggers (for a socket unit, its service).
    public var triggers: [String]
    /// The triggered service's `User=` (empty: root).
    public var serviceUser: String

    public init(loadState: String, listen: [(type: String, address: String)], accept: Bool, triggers: [String], serviceUser: String) {
        self.loadState = loadState
        self.listen = listen
        self.accept = accept
        self.triggers = triggers
        self.serviceUser = serviceUser
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.loadState == rhs.loadState && lhs.listen.map(\.type) == rhs.listen.map(\.type)
            && lhs.listen.map(\.address) == rhs.listen.map(\.address) && lhs.accept == rhs.accept
            && lhs.triggers == rhs.triggers && lhs.serviceUser == rhs.serviceUser
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(loadState)
        hasher.combine(listen.map(\.address))
        hasher.combine(triggers)
    }

    /// The path to connect to, or why the unit is not the app's to be woken by.
    public func verdict(for manifest: AppManifest) -> Result<String, WakeSocketRefusal> {
        let unit = manifest.wakeSocket ?? "(none)"
        guard loadState == "loaded" else { return .failure(.init(unit, "is \(loadState), not loaded (not installed?)")) }
        guard !accept else { return .failure(.init(unit, "has Accept=yes; waking needs one service, Accept=no")) }
        let streams = listen.filter { $0.type == "Stream" && $0.address.hasPrefix("/") }
        guard streams.count == 1, listen.count == 1, let path = streams.first?.address else {
            return .failure(.init(unit, "must listen on exactly one stream socket path (ListenStream=/run/…)"))
        }
        let services = triggers.filter { $0.hasSuffix(".service") }
        guard services.count == 1, let service = services.first else {
            return .failure(.init(unit, "must start exactly one service"))
        }
        if let expected = manifest.unit, expected.hasSuffix(".service"), service != expected {
            return .failure(.init(unit, "starts \(service), not the app's Unit=\(expected)"))
        }
        if let user = manifest.user, serviceUser != user {
            return .failure(.init(unit, "starts \(service) as \(serviceUser.isEmpty ? "root" : serviceUser), not as the app's User=\(user)"))
        }
        if manifest.user == nil, manifest.unit == nil || !(manifest.unit!.hasSuffix(".service")) {
            return .failure(.init(unit, "belongs to no User= or Unit= of the manifest"))
        }
        return .success(path)
    }
}

/// Why an app cannot be woken through the unit its manifest names.
public struct WakeSocketRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    public let unit: String
    public let reason: String

    public init(_ unit: String, _ reason: String) {
        self.unit = unit
        self.reason = reason
    }

    public var description: String { "\(unit) \(reason)" }
}
