import AccessoryCore
import AccessoryPlatform

/// Who called: the bus's credentials of the connection, and the app
/// manifest they name (nil for a caller that is no app).
struct Caller {
    var credentials: CallerCredentials
    var sender: String
    var manifest: AppManifest?
    /// For a caller no manifest names because its unit is unknown while a
    /// manifest of its user (or of no user) names a unit: why, for its refusal.
    var unitNote: String?

    static func unitNote(_ credentials: CallerCredentials, _ apps: AppManifestCatalog) -> String? {
        guard credentials.unit == nil, let why = credentials.unitUnknown else { return nil }
        let byUnit = apps.manifests.values.filter { $0.unit != nil && ($0.user == nil || $0.user == credentials.userName) }
        guard !byUnit.isEmpty else { return nil }
        let named = byUnit.map { "\($0.app) (Unit=\($0.unit ?? ""))" }.sorted().joined(separator: ", ")
        return "its systemd unit is unknown (\(why)), so no manifest's Unit= can match it: \(named)"
    }
}

/// Runs a handler with who called: at once when the connection is known,
/// otherwise once the bus daemon has said (`CallerDirectory`, without
/// waiting), answering the call then. The loop never waits for it.
struct CallerResolver {
    let directory: CallerDirectory
    let connection: BusConnection
    let apps: () -> AppManifestCatalog

    func withCaller(_ call: BusMessage, _ body: @escaping (Result<Caller, BusError>) -> BusConnection.MethodOutcome?)
        -> BusConnection.MethodOutcome? {
        guard let sender = call.sender else { return body(.failure(.invalidArguments("no sender"))) }
        let apps = self.apps
        func caller(_ answer: CallerDirectory.Answer) -> Result<Caller, BusError> {
            answer.map { credentials in
                let catalog = apps()
                let manifest = catalog.manifest(forUser: credentials.userName, unit: credentials.unit)
                return Caller(credentials: credentials, sender: sender, manifest: manifest,
                              unitNote: manifest == nil ? Caller.unitNote(credentials, catalog) : nil)
            }
        }
        if let credentials = directory.known(sender) { return body(caller(.success(credentials))) }
        directory.resolve(sender) { [weak connection = self.connection] answer in
            connection?.finish(call, with: body(caller(answer)))
        }
        return .deferred
    }

    /// The same for calls that need a caller: a failed look-up is the call's error.
    func withKnownCaller(_ call: BusMessage, _ body: @escaping (Caller) -> BusConnection.MethodOutcome?) -> BusConnection.MethodOutcome? {
        withCaller(call) { caller in
            switch caller {
            case .success(let caller): body(caller)
            case .failure(let error): .error(error)
            }
        }
    }
}
