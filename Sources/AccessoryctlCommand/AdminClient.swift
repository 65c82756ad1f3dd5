import AccessoryCore
import AccessoryPlatform

/// accessoryd's administrator interface, `org.accessoryagent.Admin1`, one
/// method per member, answering plain values. Every failure is an `AdminError`.
struct AdminClient {
    static let interface = BusNames.admin

    private let connection: BusConnection

    /// Connects to the system bus, or to the bus at `busAddress`.
    init(busAddress: String?) throws(AdminError) {
        do {
            connection = try BusConnection(address: busAddress, loop: nil)
        } catch {
            throw .cannotConnect(address: busAddress, reason: error.description)
        }
    }

    func listRequests() throws(AdminError) -> [PendingRequest] {
        let reply = try call("ListRequests")
        return try decode("ListRequests") { () throws(BusError) in
            var requests: [PendingRequest] = []
            try reply.readArray("(ussasu)") { () throws(BusError) in
                try reply.readContainer("r", "ussasu") { () throws(BusError) in
                    requests.append(PendingRequest(
                        number: try reply.readUInt32(), app: try reply.readString(), kind: try reply.readString(),
                        items: try reply.readStrings(), candidateCount: try reply.readUInt32()))
                }
            }
            return requests
        }
    }

    func listCandidates(request: UInt32) throws(AdminError) -> [Candidate] {
        let reply = try call("ListCandidates") { $0.append(request) }
        return try decode("ListCandidates") { () throws(BusError) in
            var candidates: [Candidate] = []
            try reply.readArray("(ussssi)") { () throws(BusError) in
                try reply.readContainer("r", "ussssi") { () throws(BusError) in
                    candidates.append(Candidate(
                        number: try reply.readUInt32(), item: try reply.readString(), name: try reply.readString(),
                        kind: try reply.readString(), identity: try reply.readString(), rssi: try reply.readInt32()))
                }
            }
            return candidates
        }
    }

    /// Approves `candidate` (0 for a migration), renamed to `name` unless
    /// empty; answers the new accessory's object path.
    func approve(request: UInt32, candidate: UInt32, name: String) throws(AdminError) -> String {
        let reply = try call("Approve") { $0.append(request).append(candidate).append(name) }
        return try decode("Approve") { () throws(BusError) in try reply.readObjectPath() }
    }

    func deny(request: UInt32) throws(AdminError) {
        _ = try call("Deny") { $0.append(request) }
    }

    func listAccessories() throws(AdminError) -> [AccessorySummary] {
        let reply = try call("ListAccessories")
        return try decode("ListAccessories") { () throws(BusError) in
            var accessories: [AccessorySummary] = []
            try reply.readArray("(sssss)") { () throws(BusError) in
                try reply.readContainer("r", "sssss") { () throws(BusError) in
                    accessories.append(AccessorySummary(
                        id: try reply.readString(), app: try reply.readString(), name: try reply.readString(),
                        state: try reply.readString(), identity: try reply.readString()))
                }
            }
            return accessories
        }
    }

    func removeAccessory(id: String) throws(AdminError) {
        _ = try call("RemoveAccessory") { $0.append(id) }
    }

    func renameAccessory(id: String, name: String) throws(AdminError) {
        _ = try call("RenameAccessory") { $0.append(id).append(name) }
    }

    func allow(app: String, seconds: UInt32) throws(AdminError) {
        _ = try call("Allow") { $0.append(app).append(seconds) }
    }

    func disallow(app: String) throws(AdminError) {
        _ = try call("Disallow") { $0.append(app) }
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
        let clock = ContinuousClock()
        let end = clock.now + duration
        while clock.now < end { _ = connection.process(timeout: end - clock.now) }
    }

    private func call(_ member: String, _ build: (BusReply) -> Void = { _ in }) throws(AdminError) -> BusMessage {
        do {
            return try connection.call(
                destination: BusNames.service, path: BusNames.root, interface: Self.interface, member: member, build)
        } catch {
            throw AdminError(error, member: member)
        }
    }

    private func decode<Value>(_ member: String, _ body: () throws(BusError) -> Value) throws(AdminError) -> Value {
        do {
            return try body()
        } catch {
            throw .unreadableReply(member: member, reason: error.message)
        }
    }
}
