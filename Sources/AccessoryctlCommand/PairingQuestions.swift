import AccessoryCommandLine
import AccessoryPlatform
import AccessoryWire

/// `accessoryctl pairing-questions`: what the pairings under way ask.
struct PairingQuestions: AdminCommand {
    static let declaration = CommandDeclaration(
        "pairing-questions",
        abstract: "List the questions of the pairings under way.",
        discussion: """
            An accessory that asks for pairing is paired after its approval, and the pairing may ask \
            whoever approved: to confirm that both sides show the same number, to type the number \
            shown here on the accessory, or to enter the passkey the accessory shows (Just Works is \
            not asked: the approval was the consent). Each question shows its request, its prompt number, its kind, the number when there \
            is one, the accessory, who approved it, and the seconds left to answer. Answer with \
            'accessoryctl answer-pairing'.
            """,
        options: [BusOptions.busAddress])

    var busAddress: String?

    init(_ line: ParsedCommandLine) {
        busAddress = line.value("bus-address")
    }

    func run(_ client: AdminClient) throws(AdminError) {
        StandardOutput.write(AdminFormat.pairingQuestions(try client.listPairingQuestions()))
    }
}

/// `accessoryctl answer-pairing REQUEST (--confirm | --reject | --passkey DIGITS)`.
struct AnswerPairing: AdminCommand {
    static let declaration = CommandDeclaration(
        "answer-pairing",
        abstract: "Answer the question of a pairing under way (see 'accessoryctl pairing-questions').",
        discussion: """
            Exactly one answer: --confirm for a number that matches, or a passkey typed on \
            the accessory; --reject to stop the pairing (the app is told it failed, nothing is granted); \
            --passkey with the six digits the accessory shows. Without --prompt, the question open for \
            the request now.
            """,
        options: [
            OptionDeclaration.flag("confirm", help: "Go on: consent, the numbers match, or the passkey was typed."),
            OptionDeclaration.flag("reject", help: "Stop the pairing."),
            OptionDeclaration("passkey", valueName: "digits", help: "The six digits the accessory shows (000000-999999)."),
            OptionDeclaration("prompt", valueName: "number", help: "The question's prompt number (default: the one open now)."),
            BusOptions.busAddress,
        ],
        arguments: [ArgumentDeclaration("request", help: "The request whose pairing asks.",
                                        completion: .words(CompletionWords.requests))])

    var request: UInt32
    var prompt: UInt32?
    /// What goes on the wire: `yes`, `no`, or the six digits.
    var answer: String
    var busAddress: String?

    init(_ line: ParsedCommandLine) throws(CommandLineError) {
        request = try line.requiredArgument("request") { UInt32($0) }
        prompt = try line.value("prompt") { UInt32($0) }
        busAddress = line.value("bus-address")
        var answers: [String] = []
        if line.flag("confirm") { answers.append("yes") }
        if line.flag("reject") { answers.append("no") }
        if let passkey = line.value("passkey") {
            guard PairingAnswerText.isPasskey(passkey) else { throw .rule("--passkey needs six digits, 000000-999999") }
            answers.append(passkey)
        }
        guard answers.count == 1 else { throw .rule("give exactly one of --confirm, --reject, --passkey") }
        answer = answers[0]
    }

    func run(_ client: AdminClient) throws(AdminError) {
        let number: UInt32
        if let prompt {
            number = prompt
        } else {
            guard let open = try client.listPairingQuestions().first(where: { $0.request == request }) else {
                throw .command("no pairing question is open for request \(request)")
            }
            number = open.prompt
        }
        try client.answerPairing(request: request, prompt: number, answer: answer)
        StandardOutput.write("answered: request \(request) prompt \(number)\n")
    }
}

/// The answers' spelling, checked before anything is sent.
enum PairingAnswerText {
    static func isPasskey(_ text: String) -> Bool {
        text.utf8.count == 6 && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
