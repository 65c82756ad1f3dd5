import AccessoryCore
import AccessoryPlatform
import AccessoryCommandLine

/// `accessoryctl pick`: the picker for an administrator at a console, or a
/// script feeding answers on stdin. Line-based, so it works on any terminal
/// and through a pipe.
struct Pick: AdminCommand {
    static let declaration = CommandDeclaration(
        "pick",
        abstract: "Answer a pending request interactively (or from a script on stdin).",
        discussion: """
            Waits until a request has candidates (looking again every --interval), shows it, and reads \
            one answer per line: a candidate's number approves it; 'r' (or 'r NUMBER') asks for a name, \
            then approves; 'd' denies the request; an empty line shows the candidates again; 'q' quits \
            and leaves the request pending. A migration request is approved with 0. When the approved \
            accessory asks for pairing, waits for the pairing and puts its questions: y or n to confirm \
            a number both sides show, the six digits the accessory shows for passkey \
            entry; a passkey to type on the accessory is shown. Exits after one decision (and its \
            pairing); with status 1 when the input ends first or the pairing fails.
            """,
        options: [
            OptionDeclaration("request", help: "Answer this request only (default: the oldest)."),
            OptionDeclaration(
                "interval", valueName: "duration", help: "How often to look for requests while none has candidates.",
                defaultValue: defaultInterval),
            BusOptions.busAddress,
        ])

    static let defaultInterval = "2s"

    var request: UInt32?
    /// How long to wait between looks at the requests.
    var pause: Duration
    var busAddress: String?

    init(_ line: ParsedCommandLine) throws(CommandLineError) {
        request = try line.value("request") { UInt32($0) }
        busAddress = line.value("bus-address")
        guard let span = TimeSpan.parse(line.value("interval") ?? Self.defaultInterval), span > .zero else {
            throw .rule("--interval needs a time span such as 2s or 500ms")
        }
        pause = span
    }

    func run(_ client: AdminClient) throws(AdminError) {
        var announcedWaiting = false
        while true {
            let pending = try client.requestsWithCandidates().filter { request == nil || $0.request.number == request }
            if let request, pending.isEmpty { throw .command("no pending request \(request)") }
            guard let entry = pending.first(where: \.isReady) else {
                if !announcedWaiting { StandardOutput.write("waiting for a request with candidates...\n") }
                announcedWaiting = true
                client.pause(for: pause)
                continue
            }
            announcedWaiting = false
            StandardOutput.write(AdminFormat.request(entry))
            let others = pending.filter { $0.isReady && $0.request.number != entry.request.number }
            if !others.isEmpty {
                let numbers = others.map { String($0.request.number) }.joined(separator: ", ")
                StandardOutput.write("(also pending: request \(numbers); answer one with --request NUMBER)\n")
            }
            if try decide(entry, client) { return }
        }
    }

    /// Asks until there is an answer; false to list the request again.
    private func decide(_ entry: RequestWithCandidates, _ client: AdminClient) throws(AdminError) -> Bool {
        let number = entry.request.number
        let choices: [UInt32] = entry.request.isMigration ? [0] : entry.candidates.map(\.number)
        while true {
            StandardOutput.write(entry.request.isMigration
                ? "approve the migration? [0 approve, d deny, Enter list again, q quit] "
                : "approve which candidate? [number, r rename and approve, d deny, Enter list again, q quit] ")
            switch PickAnswer(try readAnswer(), candidates: choices) {
            case .refresh:
                return false
            case .quit:
                StandardOutput.write("request \(number) left pending\n")
                return true
            case .deny:
                try client.deny(request: number)
                StandardOutput.write("denied: request \(number)\n")
                return true
            case .approve(let candidate):
                if entry.request.isMigration {
                    StandardOutput.write(try MigrationApproval.approve(number, client))
                    return true
                }
                try approved(number, try client.approve(request: number, candidate: candidate, name: ""), client)
                return true
            case .renameAndApprove(let chosen):
                var candidate = chosen
                while candidate == nil {
                    StandardOutput.write("rename and approve which candidate? ")
                    candidate = PickAnswer.candidate(try readAnswer(), of: choices)
                    if candidate == nil { StandardOutput.write("choose \(choices.map(String.init).joined(separator: ", "))\n") }
                }
                var name = ""
                while name.isEmpty {
                    StandardOutput.write("name: ")
                    name = Self.trimmed(try readAnswer())
                }
                try approved(number, try client.approve(request: number, candidate: candidate ?? 0, name: name), client)
                return true
            case .invalid(let reason):
                StandardOutput.write(reason + "\n")
            }
        }
    }

    /// Says what was approved, then follows its pairing if it asks for one.
    private func approved(_ number: UInt32, _ path: String, _ client: AdminClient) throws(AdminError) {
        StandardOutput.write(AdminFormat.approved(path))
        let follow = PairingFollow(request: number, accessoryPath: path, pause: Self.pairingInterval) { () throws(AdminError) in
            try readAnswer()
        }
        StandardOutput.write(try follow.run(client))
    }

    /// How often a pairing under way is looked at: its questions wait 25 s for an answer.
    static let pairingInterval = Duration.milliseconds(250)

    private static func trimmed(_ text: String) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    private func readAnswer() throws(AdminError) -> String {
        guard let line = readLine() else {
            StandardOutput.write("\n")
            throw .command("no decision: the input ended")
        }
        return line
    }
}
