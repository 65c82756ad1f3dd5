import AccessoryCore
import AccessoryPlatform
import AccessoryWire

/// accessoryd's administrator interface, `org.accessoryagent.Admin1`, one
/// method per member, answering plain values. Every failure is an `AdminError`.
struct AdminClient {
    static let interface = BusNames.admin

    private let connection: BusConnection
    /// Where `pause` reads the time: the scheduler's clock, injected like
    /// everywhere else (accessoryctl runs no event loop to arm a timer on).
    var clock: any MonotonicClock = SystemMonotonicClock()
    /// How long a call may wait for accessoryd (a completion waits briefly).
    var timeout: Duration = .seconds(25)

    /// Connects to the system bus, or to the bus at `busAddress`.
    init(busAddress: String?) throws(AdminError) {
        do {
            connection = try BusConnection(address: busAddress, loop: nil)
        } catch {
            throw .cannotConnect(address: busAddress, reason: error.description)
        }
    }

    func listRequests() throws(AdminError) -> [PendingRequest] {
        let method = Admin1.listRequests
        let reply = try call(method)
        return try decode(method) { () throws(BusError) in
            try PlainArguments(reply).records(of: WireRequestRow.self, "requests").map {
                PendingRequest(number: $0.number, app: $0.app, kind: $0.kind, items: $0.items, candidateCount: $0.candidateCount,
                               images: $0.images, secondsLeft: $0.secondsLeft < 0 ? nil : $0.secondsLeft)
            }
        }
    }

    func listCandidates(request: UInt32) throws(AdminError) -> [Candidate] {
        let method = Admin1.listCandidates
        let reply = try call(method) { $0.append(request) }
        return try decode(method) { () throws(BusError) in
            try PlainArguments(reply).records(of: WireCandidateRow.self, "candidates").map {
                Candidate(number: $0.number, item: $0.item, name: $0.name, kind: $0.kind, identity: $0.identity, rssi: $0.rssi)
            }
        }
    }

    /// Approves `candidate` (0 for a migration), renamed to `name` unless
    /// empty; answers the new accessory's object path.
    func approve(request: UInt32, candidate: UInt32, name: String) throws(AdminError) -> String {
        let reply = try call(Admin1.approve) { $0.append(request).append(candidate).append(name) }
        return try decode(Admin1.approve) { () throws(BusError) in try reply.readObjectPath() }
    }

    func deny(request: UInt32) throws(AdminError) {
        _ = try call(Admin1.deny) { $0.append(request) }
    }

    func listAccessories() throws(AdminError) -> [AccessorySummary] {
        let method = Admin1.listAccessories
        let reply = try call(method)
        return try decode(method) { () throws(BusError) in
            try PlainArguments(reply).records(of: WireAccessoryRow.self, "accessories").map {
                AccessorySummary(id: $0.id, app: $0.app, name: $0.name, state: $0.state, identity: $0.identity,
                                 present: $0.present, secondsSinceHeard: $0.secondsSinceHeard < 0 ? nil : Int($0.secondsSinceHeard))
            }
        }
    }

    func removeAccessory(id: String) throws(AdminError) {
        _ = try call(Admin1.removeAccessory) { $0.append(id) }
    }

    func renameAccessory(id: String, name: String) throws(AdminError) {
        _ = try call(Admin1.renameAccessory) { $0.append(id).append(name) }
    }

    func allow(app: String, seconds: UInt32) throws(AdminError) {
        _ = try call(Admin1.allow) { $0.append(app).append(seconds) }
    }

    func disallow(app: String) throws(AdminError) {
        _ = try call(Admin1.disallow) { $0.append(app) }
    }

    /// The pairing questions open now, oldest request first.
    func listPairingQuestions() throws(AdminError) -> [WirePairingQuestion] {
        let method = Admin1.listPairingQuestions
        let reply = try call(method)
        return try decode(method) { () throws(BusError) in
            try PlainArguments(reply).records(of: WirePairingQuestion.self, "questions")
        }
    }

    /// `answer`: `yes`, `no`, or six digits.
    func answerPairing(request: UInt32, prompt: UInt32, answer: String) throws(AdminError) {
        _ = try call(Admin1.answerPairing) { $0.append(request).append(prompt).append(answer) }
    }

    /// Every request with its candidates, oldest (lowest number) first. A
    /// request that ends between the two calls is left out rather than
    /// failing the listing.
    func requestsWithCandidates() throws(AdminError) -> [RequestWithCandidates] {
        var result: [RequestWithCandidates] = []
        for request in try listRequests().sorted(by: { $0.number < $1.number }) {
            do throws(AdminError) {
                result.append(RequestWithCandidates(request: request, candidates: try listCandidates(request: request.number)))
            } catch {
                guard case .daemon = error else { throw error }
            }
        }
        return result
    }

    /// Waits `duration` on the bus connection (between `pick`'s refreshes),
    /// keeping it serviced meanwhile.
    func pause(for duration: Duration) {
        let end = clock.now.advanced(by: duration)
        while clock.now < end { _ = connection.process(timeout: end.duration(since: clock.now)) }
    }

    /// Whether org.accessoryagent has an owner now, asked of the bus itself:
    /// a call to the name could start accessoryd where the bus may activate it.
    func serviceIsRunning() -> Bool {
        let reply = try? connection.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "NameHasOwner", timeout: timeout) { $0.append(BusNames.service) }
        return (try? reply?.readBool()) == true
    }

    private func call(_ method: BusMethod, _ build: (BusReply) -> Void = { _ in }) throws(AdminError) -> BusMessage {
        do {
            return try connection.call(
                destination: BusNames.service, path: BusNames.root, interface: Self.interface, member: method.name,
                timeout: timeout, build)
        } catch {
            throw AdminError(error, member: method.name)
        }
    }

    private func decode<Value>(_ method: BusMethod, _ body: () throws(BusError) -> Value) throws(AdminError) -> Value {
        do {
            return try body()
        } catch {
            throw .unreadableReply(member: method.name, reason: error.message)
        }
    }
}
