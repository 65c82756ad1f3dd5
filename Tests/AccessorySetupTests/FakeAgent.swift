import AccessoryPlatform
import Synchronization
@testable import AccessorySetup

/// A stand-in for accessoryd on a private bus, answering as the D-Bus API
/// contract says (until the real service is merged): it owns
/// `org.accessoryagent`, opens one session, activates it with the accessories
/// it was given, and answers the picker as scripted, emitting the signals a
/// real picker would. It records every Session1 call with its arguments
/// written out, which is how the tests see what the client put on the wire.
/// It runs on a `BusThread` of its own, as a separate process would.
final class FakeAgent: Sendable {
    /// How the fake answers `ShowPicker`.
    enum PickerOutcome: Sendable {
        /// Presents, finds a candidate, adds `accessory`, dismisses without error.
        case pick(FakeAccessory)
        /// Presents, then dismisses with this error name and message.
        case dismiss(error: String, message: String)
        /// Refuses the call with this error.
        case refuse(BusError)
        /// Presents, then nothing: the picker stays open.
        case stayOpen
        /// Answers only on `releaseHeldReply()` (a slow agent); then the picker stays open.
        case holdReply
        /// The session's previous picker (one the app stopped waiting for)
        /// ends just as this call arrives: its `PickerDidDismiss` goes out
        /// before this call's reply. This one then presents and stays open.
        case dismissPreviousThenStayOpen(error: String, message: String)
    }

    /// How the fake answers `DismissPicker`.
    enum Withdrawal: Sendable {
        /// Dismisses the open picker, as accessoryd does: `PickerDidDismiss(userCancelled)`.
        case dismiss
        /// The picker ended just before the call: `invalidRequest`, and no signal.
        case alreadyEnded
    }

    static let withdrawn = "withdrawn by the app"

    /// An accessory's properties as the fake serves them.
    struct FakeAccessory: Sendable {
        var id: UInt64
        var properties: [(String, BusVariant)]

        var path: String { "/org/accessoryagent/accessory/" + "\(AccessoryID(id))" }
    }

    static let sessionPath = "/org/accessoryagent/session/1"

    private struct Script {
        var accessories: [FakeAccessory]
        var outcomes: [PickerOutcome]
        var withdrawal: Withdrawal
        var calls: [String] = []
        /// The connection that opened the session.
        var client: String?
        var clientLeft = false
    }

    private let script: Mutex<Script>
    private let thread: BusThread
    private let held = HeldReplies()

    /// Replies held back by `.holdReply`; touched on the fake's bus thread only.
    private final class HeldReplies: @unchecked Sendable {
        var replies: [BusReply] = []
    }

    init(address: String, accessories: [FakeAccessory] = [], picker outcomes: [PickerOutcome] = [],
         withdrawal: Withdrawal = .dismiss) async throws {
        script = Mutex(Script(accessories: accessories, outcomes: outcomes, withdrawal: withdrawal))
        thread = try BusThread()
        try await thread.perform { [self] context throws(AccessorySetupError) in
            do {
                try serve(context, address: address)
            } catch {
                throw AccessorySetupError(.unknown, reason: .message("fake agent: \(error)"))
            }
        }
    }

    /// Leaves the bus, as a crashed agent would.
    func stop() { thread.stop() }

    /// Gives up org.accessoryagent while staying on the bus, so another
    /// connection may take it; returns once the bus has done so.
    func releaseName() async throws(AccessorySetupError) {
        try await thread.perform { context throws(AccessorySetupError) in
            do {
                _ = try context.connection?.call(
                    destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                    interface: "org.freedesktop.DBus", member: "ReleaseName") { $0.append("org.accessoryagent") }
            } catch {
                throw AccessorySetupError(.unknown, reason: .message("\(error)"))
            }
        }
    }

    /// Sends the replies `.holdReply` held back.
    func releaseHeldReply() {
        thread.post { [held] context in
            for reply in held.replies { context.connection?.send(reply) }
            held.replies.removeAll()
        }
    }

    /// The unique name of the connection that opened the session.
    var clientName: String? { script.withLock { $0.client } }

    /// Whether the session's client has left the bus.
    var clientLeft: Bool { script.withLock { $0.clientLeft } }

    /// The Session1 calls made so far, one line each: `Member arguments…`.
    var calls: [String] { script.withLock { $0.calls } }

    /// Sends a signal to the session's client on the agent's own initiative
    /// (the administrator removed an accessory, the agent ended the session):
    /// a Session1 signal on the session's path unless told otherwise, such as
    /// an accessory's `PropertiesChanged` or `Advertisement` on its object.
    func emit(
        _ member: String, path: String = sessionPath, interface: String = "org.accessoryagent.Session1",
        _ build: @escaping @Sendable (BusReply) -> Void = { _ in }
    ) {
        let client = script.withLock { $0.client }
        thread.post { context in
            try? context.connection?.emitSignal(
                path: path, interface: interface, member: member, destination: client, build)
        }
    }

    private func record(_ line: String) { script.withLock { $0.calls.append(line) } }

    private func serve(_ context: BusThread.Context, address: String) throws(SystemError) {
        let connection = try BusConnection(address: address, loop: context.loop)
        context.connection = connection
        try connection.requestName("org.accessoryagent")
        try connection.serve(path: "/org/accessoryagent") { [self] call, connection in
            guard call.member == "OpenSession" else { return nil }
            script.withLock { $0.client = call.sender }
            try? connection.whenSenderLeaves(call) { [self] in script.withLock { $0.clientLeft = true } }
            return connection.reply(to: call).map { .reply($0.append(objectPath: Self.sessionPath)) }
        }
        try connection.serve(path: "/org/accessoryagent/session", subtree: true) { [self] call, connection in
            guard call.path == Self.sessionPath, call.interface == "org.accessoryagent.Session1",
                let member = call.member, let client = call.sender, let reply = connection.reply(to: call)
            else { return nil }
            do throws(BusError) {
                return try answer(member, call: call, reply: reply, client: client, context: context)
            } catch {
                return .error(error)
            }
        }
        try connection.serve(path: "/org/accessoryagent/accessory", subtree: true) { [self] call, connection in
            guard call.member == "GetAll", let reply = connection.reply(to: call) else { return nil }
            guard let accessory = script.withLock({ $0.accessories.first { $0.path == call.path } }) else {
                return .error(BusError(name: "org.freedesktop.DBus.Error.UnknownObject", message: "no such accessory"))
            }
            reply.container("a", "{sv}") { array in
                for (name, value) in accessory.properties {
                    array.container("e", "sv") { $0.append(name).append(variant: value) }
                }
            }
            return .reply(reply)
        }
    }

    private func answer(
        _ member: String, call: BusMessage, reply: BusReply, client: String, context: BusThread.Context
    ) throws(BusError) -> BusConnection.MethodOutcome {
        // Signals go out after the reply, from the next turn of the loop, as the agent's do.
        func later(_ signals: [(String, (BusReply) -> Void)]) {
            _ = context.loop.at(context.loop.now) {
                for (name, build) in signals {
                    try? context.connection?.emitSignal(
                        path: Self.sessionPath, interface: "org.accessoryagent.Session1", member: name,
                        destination: client, build)
                }
            }
        }
        switch member {
        case "Activate":
            let paths = script.withLock { $0.accessories.map(\.path) }
            record("Activate")
            later([("Activated", { $0.append(objectPaths: paths) })])
            return .reply(reply.append(objectPaths: paths))
        case "Invalidate":
            record("Invalidate")
            later([("Invalidated", { _ in })])
            return .reply(reply)
        case "ShowPicker":
            record("ShowPicker " + (try Self.readItems(call)) + " " + Self.describe(try call.readStringPairs()))
            let outcome = script.withLock { $0.outcomes.isEmpty ? PickerOutcome.stayOpen : $0.outcomes.removeFirst() }
            switch outcome {
            case .refuse(let error):
                return .error(error)
            case .stayOpen:
                later([("PickerDidPresent", { _ in })])
            case .holdReply:
                held.replies.append(reply)
                return .deferred
            case .dismissPreviousThenStayOpen(let error, let message):
                try? context.connection?.emitSignal(
                    path: Self.sessionPath, interface: "org.accessoryagent.Session1", member: "PickerDidDismiss",
                    destination: client) { $0.append(error).append(message) }
                later([("PickerDidPresent", { _ in })])
            case .dismiss(let error, let message):
                later([("PickerDidPresent", { _ in }), ("PickerDidDismiss", { $0.append(error).append(message) })])
            case .pick(let accessory):
                script.withLock { $0.accessories.append(accessory) }
                later([
                    ("PickerDidPresent", { _ in }),
                    ("AccessoryDiscovered", {
                        $0.append(UInt32(1)).append("Lab Lamp").append("00:AA:01:01:00:02/random").append(Int32(-48))
                            .append(bytes: [0x02, 0x01, 0x06])
                    }),
                    ("AccessoryAdded", { $0.append(objectPath: accessory.path) }),
                    ("PickerDidDismiss", { $0.append("").append("") }),
                ])
            }
            return .reply(reply)
        case "UpdatePicker":
            var shown: [String] = []
            try call.readArray("(uss)") { () throws(BusError) in
                try call.readContainer("r", "uss") { () throws(BusError) in
                    shown.append("\(try call.readUInt32()) \"\(try call.readString())\" \"\(try call.readString())\"")
                }
            }
            record("UpdatePicker " + shown.joined(separator: ", "))
            return .reply(reply)
        case "FinishPickerDiscovery":
            record("FinishPickerDiscovery")
            return .reply(reply)
        case "DismissPicker":
            record("DismissPicker")
            switch script.withLock({ $0.withdrawal }) {
            case .dismiss:
                later([("PickerDidDismiss", { $0.append("org.accessoryagent.Error.userCancelled").append(Self.withdrawn) })])
                return .reply(reply)
            case .alreadyEnded:
                return .error(BusError(name: "org.accessoryagent.Error.invalidRequest", message: "no picker is open"))
            }
        case "FinishAuthorization":
            record("FinishAuthorization \(try call.readObjectPath()) " + Self.describe(try call.readStringPairs()))
            return .reply(reply)
        case "FailAuthorization", "RemoveAccessory":
            let path = try call.readObjectPath()
            record("\(member) \(path)")
            if member == "RemoveAccessory" {
                script.withLock { $0.accessories.removeAll { $0.path == path } }
                later([("AccessoryRemoved", { $0.append(objectPath: path) })])
            }
            return .reply(reply)
        case "ObservePresence":
            record("ObservePresence \(try call.readObjectPath()) \(try call.readBool())")
            return .reply(reply)
        case "UpdateAuthorization":
            record("UpdateAuthorization \(try call.readObjectPath()) " + Self.describe(try call.readStringPairs()))
            return .reply(reply)
        case "RenameAccessory":
            let path = try call.readObjectPath()
            let name = try call.readString()
            let options = try call.readStrings()
            record("RenameAccessory \(path) \"\(name)\" \(options)")
            script.withLock { script in
                guard let index = script.accessories.firstIndex(where: { $0.path == path }) else { return }
                script.accessories[index].properties.removeAll { $0.0 == "DisplayName" }
                script.accessories[index].properties.append(("DisplayName", .string(name)))
            }
            later([("AccessoryChanged", { $0.append(objectPath: path) })])
            return .reply(reply)
        case "Migrate":
            var items: [String] = []
            try call.readArray("(sssa{ss})") { () throws(BusError) in
                try call.readContainer("r", "sssa{ss}") { () throws(BusError) in
                    let name = try call.readString()
                    let address = try call.readString()
                    let ssid = try call.readString()
                    items.append("\"\(name)\" \"\(address)\" \"\(ssid)\" " + Self.describe(try call.readStringPairs()))
                }
            }
            record("Migrate " + items.joined(separator: ", "))
            later([("MigrationComplete", { _ in })])
            return .reply(reply)
        default:
            return .error(BusError(name: "org.freedesktop.DBus.Error.UnknownMethod", message: member))
        }
    }

    /// `a(ssa{ss}asas)` written out: `["name" "image" {K=V …} [options] [rename]] …`.
    private static func readItems(_ call: BusMessage) throws(BusError) -> String {
        var items: [String] = []
        try call.readArray("(ssa{ss}asas)") { () throws(BusError) in
            try call.readContainer("r", "ssa{ss}asas") { () throws(BusError) in
                let name = try call.readString()
                let image = try call.readString()
                let descriptor = describe(try call.readStringPairs())
                let setup = try call.readStrings()
                let rename = try call.readStrings()
                items.append("[\"\(name)\" \"\(image)\" \(descriptor) \(setup) \(rename)]")
            }
        }
        return items.joined(separator: " ")
    }

    private static func describe(_ pairs: [(key: String, value: String)]) -> String {
        "{" + pairs.map { "\($0.key)=\($0.value)" }.joined(separator: " ") + "}"
    }
}
