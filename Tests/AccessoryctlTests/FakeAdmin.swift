import AccessoryPlatform
import Foundation
import TestSupport

/// A stand-in for accessoryd's `org.accessoryagent.Admin1`, served from the
/// test process on a private bus, so accessoryctl's process can be tested
/// against canned answers and canned errors. It records every call it gets.
final class FakeAdmin {
    struct Request {
        var number: UInt32; var app: String; var kind: String; var items: [String]
        var images: [String] = []; var secondsLeft: Int32 = -1
    }
    struct Candidate { var number: UInt32; var item, name, kind, identity: String; var rssi: Int32; var image = "" }
    struct Accessory {
        var id, app, name, state, identity: String
        var present = false; var secondsSinceHeard: Int32 = -1
    }

    let bus: PrivateBus
    let loop: EventLoop
    let connection: BusConnection

    var requests: [Request] = []
    var candidates: [UInt32: [Candidate]] = [:]
    var accessories: [Accessory] = []
    /// ListRequests answers nothing this many times first (a request that
    /// arrives while `pick` waits).
    var emptyListingsFirst = 0
    /// Members that answer with an error instead.
    var errors: [String: BusError] = [:]
    /// Members that answer with arguments of the wrong type.
    var malformed: Set<String> = []
    /// Requests whose approval starts a pairing: they stay listed after
    /// Approve, as accessoryd keeps them while it pairs, until AnswerPairing.
    var pairing: Set<UInt32> = []
    /// What ListPairingQuestions answers: (request, prompt, kind, number).
    var questions: [(request: UInt32, prompt: UInt32, kind: String, number: String)] = []
    /// Every call, as `Member arg arg…`, oldest first.
    private(set) var calls: [String] = []

    init(owningName: Bool = true) throws {
        bus = try PrivateBus()
        loop = try EventLoop()
        connection = try BusConnection(address: bus.address, loop: loop)
        guard owningName else { return }
        try connection.requestName("org.accessoryagent")
        try connection.serve(path: "/org/accessoryagent") { [unowned self] call, connection in
            guard call.interface == "org.accessoryagent.Admin1", let member = call.member,
                let reply = connection.reply(to: call)
            else { return nil }
            do throws(BusError) {
                return try answer(member, call, reply)
            } catch {
                return .error(error)
            }
        }
    }

    /// Runs the built accessoryctl with `arguments` (and `--bus-address`)
    /// feeding it `input`, answering its calls meanwhile.
    func run(_ arguments: [String], input: String = "") throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: AccessoryctlProcessTests.accessoryctl)
        process.arguments = arguments + ["--bus-address", bus.address]
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        // A cap on the wait, not a timing assertion: a hung accessoryctl is
        // killed so the test fails instead of hanging.
        for _ in 0..<2000 where process.isRunning { _ = loop.runOnce(timeout: .milliseconds(25)) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return (process.terminationStatus,
                String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    private func answer(_ member: String, _ call: BusMessage, _ reply: BusReply) throws(BusError) -> BusConnection.MethodOutcome {
        var arguments: [String] = []
        switch member {
        case "ListRequests", "ListAccessories", "ListPairingQuestions": break
        case "AnswerPairing": arguments = [String(try call.readUInt32()), String(try call.readUInt32()), try call.readString()]
        case "ListCandidates", "Deny": arguments = [String(try call.readUInt32())]
        case "Approve": arguments = [String(try call.readUInt32()), String(try call.readUInt32()), try call.readString()]
        case "RemoveAccessory", "Disallow": arguments = [try call.readString()]
        case "RenameAccessory": arguments = [try call.readString(), try call.readString()]
        case "Allow": arguments = [try call.readString(), String(try call.readUInt32())]
        default: throw BusError(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no \(member)")
        }
        calls.append(([member] + arguments).joined(separator: " "))
        if let error = errors[member] { throw error }
        if malformed.contains(member) { return .reply(reply.append("not what was asked for")) }
        switch member {
        case "ListRequests":
            let listed = emptyListingsFirst > 0 ? [] : requests
            emptyListingsFirst -= 1
            reply.container("a", "(ussasuasi)") { array in
                for request in listed {
                    array.container("r", "ussasuasi") {
                        $0.append(request.number).append(request.app).append(request.kind).append(strings: request.items)
                            .append(UInt32(self.candidates[request.number]?.count ?? 0))
                            .append(strings: request.images.isEmpty ? request.items.map { _ in "" } : request.images)
                            .append(request.secondsLeft)
                    }
                }
            }
        case "ListCandidates":
            guard let found = candidates[UInt32(arguments[0]) ?? 0] else {
                throw BusError(name: "org.accessoryagent.Error.invalidRequest", message: "no pending request \(arguments[0])")
            }
            reply.container("a", "(ussssis)") { array in
                for candidate in found {
                    array.container("r", "ussssis") {
                        $0.append(candidate.number).append(candidate.item).append(candidate.name).append(candidate.kind)
                            .append(candidate.identity).append(candidate.rssi).append(candidate.image)
                    }
                }
            }
        case "Approve":
            // Approved without pairing, the request ends at once, as in accessoryd.
            let number = UInt32(arguments[0]) ?? 0
            if !pairing.contains(number), arguments[1] != "0" { requests.removeAll { $0.number == number } }
            reply.append(objectPath: "/org/accessoryagent/accessory/00000000000000a1")
        case "ListPairingQuestions":
            reply.container("a", "(uussssi)") { array in
                for question in self.questions {
                    array.container("r", "uussssi") {
                        $0.append(question.request).append(question.prompt).append(question.kind).append(question.number)
                            .append("Lab Sensor").append("administrator").append(Int32(20))
                    }
                }
            }
        case "AnswerPairing":
            // The pairing completes with any answer but no: the request ends, the accessory is granted.
            let number = UInt32(arguments[0]) ?? 0
            questions.removeAll { $0.request == number }
            requests.removeAll { $0.number == number }
            if arguments[2] != "no" {
                accessories.append(Accessory(id: "00000000000000a1", app: "acme-logger", name: "Lab Sensor", state: "authorized",
                                             identity: "00:AA:01:01:00:01/public"))
            }
        case "ListAccessories":
            reply.container("a", "(sssssbi)") { array in
                for accessory in accessories {
                    array.container("r", "sssssbi") {
                        $0.append(accessory.id).append(accessory.app).append(accessory.name).append(accessory.state)
                            .append(accessory.identity).append(accessory.present).append(accessory.secondsSinceHeard)
                    }
                }
            }
        default: break
        }
        return .reply(reply)
    }
}
