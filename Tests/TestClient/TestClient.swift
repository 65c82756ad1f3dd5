import AccessoryPlatform
import AccessoryWire
import Glibc

/// An app (or a picker agent) on one bus connection, taking the steps of
/// its command line one after another (see main.swift for the steps).
final class TestClient {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Enough rounds of `process` for anything a test waits for; a bound,
    /// so a client never outlives its test.
    static let rounds = 400
    static let round = Duration.milliseconds(50)
    /// A call's bound: long enough for a test that holds the bus daemon (SIGSTOP) or the service's loop.
    static let callTimeout = Duration.seconds(120)

    let connection: BusConnection
    /// What `session` stands for as a path: the last session opened.
    private var session = ""
    /// What `accessory` stands for as a path: the last one AccessoryAdded named.
    private var accessory = ""
    /// Whether a failed call prints the error's message after its name.
    private var explains = false
    /// Signals received and not printed yet; printed by `until` and `listen`.
    private var signals: [(member: String, line: String)] = []

    init(address: String) throws {
        connection = try BusConnection(address: address, loop: nil)
        // Every interface accessoryd's objects signal on: what an app can hear of it.
        for interface in Set((BusObjects.root + BusObjects.session + BusObjects.accessory).filter { !$0.signals.isEmpty }.map(\.name)) {
            try connection.onSignal(sender: nil, interface: interface) { [unowned self] signal in
                let texts = (try? BusText.arguments(of: signal)) ?? ["unreadable"]
                if signal.member == Session1.accessoryAdded.name, let path = texts.first { self.accessory = path }
                self.signals.append((signal.member ?? "", (["signal", signal.member ?? ""] + texts).joined(separator: " ")))
            }
        }
    }

    /// One line on stdout, written at once: the test reads through a pipe.
    func say(_ words: [String]) { StandardOutput.write(words.joined(separator: " ") + "\n") }

    func take(_ step: [String]) throws {
        guard let verb = step.first else { return }
        let words = Array(step.dropFirst())
        switch verb {
        case "call": try call(words)
        case "call-later": try call(words, later: true)
        case "admin": try call([BusNames.root, BusNames.admin] + words, admin: true)
        case "session": openSession()
        case "show": try show(words)
        case "update": try update(words)
        case "listen": try listen(words)
        case "objects": objects()
        case "migrate": try migrate(words)
        case "until": until(words)
        case "explain": explains = true
        case "wait": try wait(words)
        case "mark": try mark(words)
        case "setgroups": try setGroups(words)
        case "serve": try serve(words)
        case "name": say([connection.uniqueName ?? ""])
        default: throw Failure("unknown step \(verb)")
        }
    }

    /// Calls a declared method with basic arguments, typed by AccessoryWire's
    /// declaration. `later`: without waiting; the answer is heard as a signal is,
    /// as `reply ...` (printed by `until`).
    private func call(_ words: [String], admin: Bool = false, later: Bool = false) throws {
        guard words.count >= 3 else { throw Failure("call PATH INTERFACE METHOD ARG...") }
        let path = words[0] == "session" ? session : words[0] == "accessory" ? accessory : words[0]
        let interfaces = BusObjects.root + BusObjects.session + BusObjects.accessory
        guard let method = interfaces.first(where: { $0.name == words[1] })?.method(words[2]) else {
            throw Failure("no method \(words[2]) of \(words[1]) is declared")
        }
        let values = words.dropFirst(3).map { $0 == "accessory" ? accessory : $0 }
        guard values.count == method.inputs.count else {
            throw Failure("\(method.name): \(method.inputs.count) arguments, \(values.count) given")
        }
        for (argument, value) in zip(method.inputs, values) {
            guard [.string, .objectPath, .uint32, .uint16, .boolean, .strings, .pairs].contains(argument.type),
                  argument.type != .uint32 || UInt32(value) != nil, argument.type != .uint16 || UInt16(value) != nil,
                  argument.type != .boolean || ["true", "false"].contains(value) else {
                throw Failure("\(method.name): cannot send \(value) as \(argument.type)")
            }
        }
        let build: (BusReply) -> Void = { call in
            for (argument, value) in zip(method.inputs, values) {
                switch argument.type {
                case .objectPath: call.append(objectPath: value)
                case .uint32: call.append(UInt32(value)!)
                case .uint16: call.append(UInt16(value)!)
                case .boolean: call.append(value == "true")
                case .strings: call.append(strings: Self.list(value))
                case .pairs:
                    call.append(pairs: Self.list(value).map {
                        let parts = $0.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                        return (key: String(parts[0]), value: parts.count > 1 ? String(parts[1]) : "")
                    })
                default: call.append(value)
                }
            }
        }
        guard later else {
            answer(to: method, admin: admin) { () throws(BusError) in
                try connection.call(destination: BusNames.service, path: path, interface: words[1], member: method.name,
                                    timeout: Self.callTimeout, build)
            }
            return
        }
        do throws(BusError) {
            try connection.callAsync(destination: BusNames.service, path: path, interface: words[1], member: method.name,
                                     timeout: Self.callTimeout, build) { [unowned self] result in
                self.signals.append(("reply", (["reply"] + self.text(of: result, method, admin: admin)).joined(separator: " ")))
            }
        } catch {
            say(text(of: .failure(error), method, admin: admin))
        }
    }

    /// `WORD,WORD` as a list; empty: none.
    static func list(_ value: String) -> [String] {
        value.isEmpty ? [] : value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }

    /// Prints a reply's arguments (`ok` for none), or `error` and the error's
    /// name (and message, once `explain`ed); an Admin1 refusal as its name and message.
    private func answer(to method: BusMethod, admin: Bool = false, _ call: () throws(BusError) -> BusMessage) {
        do throws(BusError) {
            say(text(of: .success(try call()), method, admin: admin))
        } catch {
            say(text(of: .failure(error), method, admin: admin))
        }
    }

    /// An answer as words: see `answer`.
    private func text(of result: Result<BusMessage, BusError>, _ method: BusMethod, admin: Bool) -> [String] {
        do throws(BusError) {
            let texts = try BusText.arguments(of: try result.get())
            if method == Manager1.openSession || method == Manager1.openPersistentSession { session = texts.first ?? "" }
            return texts.isEmpty ? ["ok"] : texts
        } catch {
            return admin ? [error.name, error.message] : ["error", error.name] + (explains ? [error.message] : [])
        }
    }

    /// Opens a session and activates it, saying nothing unless that fails.
    private func openSession() {
        do throws(BusError) {
            session = try connection.call(destination: BusNames.service, path: BusNames.root, interface: BusNames.manager,
                                          member: Manager1.openSession.name).readObjectPath()
            _ = try connection.call(destination: BusNames.service, path: session, interface: BusNames.session,
                                    member: Session1.activate.name)
        } catch {
            say(["error", error.name])
        }
    }

    /// `show NAME KEY=VALUE... [settings KEY=VALUE...] [options WORD...] [renames WORD...]`:
    /// ShowPicker on the session for one display item with that descriptor.
    private func show(_ words: [String]) throws {
        guard let name = words.first else { throw Failure("show NAME KEY=VALUE... [settings KEY=VALUE...] [options WORD...]") }
        var part = "descriptor"
        var descriptor: [(key: String, value: String)] = []
        var settings: [(key: String, value: String)] = []
        var options: [String] = []
        var renames: [String] = []
        for word in words.dropFirst() {
            if ["settings", "options", "renames"].contains(word) { part = word; continue }
            if part == "options" { options.append(word); continue }
            if part == "renames" { renames.append(word); continue }
            let pair = try Self.pair(word)
            if part == "settings" { settings.append(pair) } else { descriptor.append(pair) }
        }
        let item = WireDisplayItem(name: name, productImage: "", descriptor: descriptor, setupOptions: options, renameOptions: renames)
        answer(to: Session1.showPicker) { () throws(BusError) in
            try connection.call(destination: BusNames.service, path: session, interface: BusNames.session,
                                member: Session1.showPicker.name, timeout: Self.callTimeout) {
                $0.append(records: [item]).append(pairs: settings)
            }
        }
    }

    /// `migrate NAME ADDRESS SSID [KEY=VALUE...] [and NAME ADDRESS SSID [KEY=VALUE...]]...`:
    /// Migrate these known accessories.
    private func migrate(_ words: [String]) throws {
        let items = try words.split(separator: "and").map { words in
            guard words.count >= 3 else { throw Failure("migrate NAME ADDRESS SSID [KEY=VALUE...]") }
            let fields = Array(words)
            return WireMigrationItem(name: fields[0], bluetoothAddress: fields[1], ssid: fields[2],
                                     descriptor: try fields.dropFirst(3).map(Self.pair))
        }
        answer(to: Session1.migrate) { () throws(BusError) in
            try connection.call(destination: BusNames.service, path: session, interface: BusNames.session,
                                member: Session1.migrate.name, timeout: Self.callTimeout) { $0.append(records: items) }
        }
    }

    /// `KEY=VALUE`, split at the first `=`.
    static func pair(_ word: String) throws -> (key: String, value: String) {
        guard let equals = word.firstIndex(of: "=") else { throw Failure("\(word) is not KEY=VALUE") }
        return (key: String(word[..<equals]), value: String(word[word.index(after: equals)...]))
    }

    /// `update CANDIDATE NAME [IMAGE]`: UpdatePicker showing one candidate under NAME.
    private func update(_ words: [String]) throws {
        guard words.count == 2 || words.count == 3, let candidate = UInt32(words[0]) else { throw Failure("update CANDIDATE NAME [IMAGE]") }
        let shown = WireShownCandidate(candidate: candidate, name: words[1], productImage: words.count == 3 ? words[2] : "")
        answer(to: Session1.updatePicker) { () throws(BusError) in
            try connection.call(destination: BusNames.service, path: session, interface: BusNames.session,
                                member: Session1.updatePicker.name, timeout: Self.callTimeout) { $0.append(records: [shown]) }
        }
    }

    /// `until SIGNAL...`: prints the signals as they come, up to one of these.
    private func until(_ words: [String]) {
        var seen = false
        for _ in 0..<Self.rounds {
            while !seen, !signals.isEmpty {
                let signal = signals.removeFirst()
                StandardOutput.write(signal.line + "\n")
                seen = words.contains(signal.member)
            }
            if seen { return }
            _ = connection.process(timeout: Self.round)
        }
    }

    /// `listen FILE`: prints the signals as they come, until FILE exists.
    private func listen(_ words: [String]) throws {
        guard let path = words.first else { throw Failure("listen FILE") }
        for _ in 0..<(3 * Self.rounds) {
            while !signals.isEmpty { StandardOutput.write(signals.removeFirst().line + "\n") }
            if access(path, F_OK) == 0 { return }
            _ = connection.process(timeout: Self.round)
        }
    }

    /// `objects`: the paths GetManagedObjects lists at the root, sorted, or the error.
    private func objects() {
        do throws(BusError) {
            let reply = try connection.call(destination: BusNames.service, path: BusNames.root, interface: BusNames.objectManager,
                                            member: FreedesktopInterfaces.getManagedObjects.name)
            var paths: [String] = []
            try reply.readArray("{oa{sa{sv}}}") { () throws(BusError) in
                try reply.readContainer("e", "oa{sa{sv}}") { () throws(BusError) in
                    paths.append(try reply.readObjectPath())
                    try reply.skip("a{sa{sv}}")
                }
            }
            say(["[" + paths.sorted().joined(separator: ",") + "]"])
        } catch {
            say(["error", error.name])
        }
    }

    /// `wait FILE`: waits for FILE to exist (the test's go-ahead), serving the connection.
    private func wait(_ words: [String]) throws {
        guard let path = words.first else { throw Failure("wait FILE") }
        for _ in 0..<Self.rounds where access(path, F_OK) != 0 { _ = connection.process(timeout: Self.round) }
    }

    /// `mark FILE`: makes the empty FILE, telling the test this client got this far.
    private func mark(_ words: [String]) throws {
        guard let path = words.first else { throw Failure("mark FILE") }
        let fd = open(path, O_WRONLY | O_CREAT, 0o644)
        guard fd >= 0 else { throw Failure("mark \(path): errno \(errno)") }
        close(fd)
    }

    /// `setgroups GID...`, after the bus has the connection's credentials.
    private func setGroups(_ words: [String]) throws {
        let groups = try words.map { word in
            guard let gid = gid_t(word) else { throw Failure("setgroups: not a gid: \(word)") }
            return gid
        }
        // The unique name comes with Hello's answer: the bus has read our credentials by then.
        guard connection.uniqueName != nil else { throw Failure("setgroups: not connected") }
        guard setgroups(groups.count, groups) == 0 else { throw Failure("setgroups: errno \(errno)") }
    }

    /// `serve PATH [approving]`: a picker agent at PATH; its calls are heard as
    /// signals are (`MEMBER ARG...`, printed by `until` and `listen`) and answered
    /// at once. `approving`: it approves each candidate it is told of, and the
    /// answer is heard as `approve ACCESSORY` (or the error). `answering WORD`:
    /// it answers each pairing question with WORD (`Admin1.AnswerPairing`),
    /// heard as `answered` or `answer error NAME`.
    private func serve(_ words: [String]) throws {
        guard let path = words.first else { throw Failure("serve PATH [approving] [answering WORD]") }
        let approving = words.dropFirst().first == "approving"
        let answering = words.firstIndex(of: "answering").flatMap { words.indices.contains($0 + 1) ? words[$0 + 1] : nil }
        try connection.serve(path: path) { [unowned self] call, connection in
            guard call.interface == BusNames.pickerAgent else { return nil }
            let texts = (try? BusText.arguments(of: call)) ?? ["unreadable"]
            self.signals.append((call.member ?? "", ([call.member ?? ""] + texts).joined(separator: " ")))
            if approving, call.member == PickerAgent1.candidateAdded.name, texts.count >= 2,
               let request = UInt32(texts[0]), let candidate = UInt32(texts[1]) {
                do throws(BusError) {
                    let granted = try connection.call(destination: BusNames.service, path: BusNames.root, interface: BusNames.admin,
                                                      member: Admin1.approve.name) { _ = $0.append(request).append(candidate).append("") }
                    self.signals.append(("approve", "approve " + (try granted.readObjectPath())))
                } catch {
                    self.signals.append(("approve", "approve error " + error.name))
                }
            }
            if let answering, call.member == PickerAgent1.pairingQuestion.name, texts.count >= 2,
               let request = UInt32(texts[0]), let prompt = UInt32(texts[1]) {
                do throws(BusError) {
                    _ = try connection.call(destination: BusNames.service, path: BusNames.root, interface: BusNames.admin,
                                            member: Admin1.answerPairing.name) { _ = $0.append(request).append(prompt).append(answering) }
                    self.signals.append(("answered", "answered"))
                } catch {
                    self.signals.append(("answered", "answer error " + error.name))
                }
            }
            return connection.reply(to: call).map { .reply($0) }
        }
    }
}
