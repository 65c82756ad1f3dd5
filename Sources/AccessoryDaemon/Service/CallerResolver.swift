import AccessoryCore
import AccessoryPlatform

/// Who called: the bus's credentials of the connection, and the app
/// manifest they name (nil for a caller that is no app).
struct Caller {
    var credentials: CallerCredentials
    var sender: String
    var manifest: AppManifest?
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
            answer.map { Caller(credentials: $0, sender: sender, manifest: apps().manifest(forUser: $0.userName, unit: $0.unit)) }
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
