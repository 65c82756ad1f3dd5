import AccessoryCore
import AccessoryPlatform
import AccessoryWire

/// After `pick` approved an accessory that asks for pairing: the request
/// stays open while accessoryd pairs it, and each question the pairing
/// asks is put to the person here, until the request ends. Polls, as
/// `pick` does for requests: accessoryctl runs no event loop.
struct PairingFollow {
    let request: UInt32
    /// The path `Approve` answered: the id the grant has if the pairing completes.
    let accessoryPath: String
    let pause: Duration
    let readLine: () throws(AdminError) -> String

    /// What to print last when paired; a pairing that failed is an error (exit status 1).
    func run(_ client: AdminClient) throws(AdminError) -> String {
        guard try client.listRequests().contains(where: { $0.number == request }) else { return "" }
        StandardOutput.write("pairing \(AccessoryPath.id(accessoryPath)); the accessory may ask something\n")
        var asked: Set<UInt32> = []
        while true {
            if let question = try client.listPairingQuestions().first(where: { $0.request == request && !asked.contains($0.prompt) }) {
                asked.insert(question.prompt)
                try put(question, client)
                continue
            }
            guard try client.listRequests().contains(where: { $0.number == request }) else { break }
            client.pause(for: pause)
        }
        let id = AccessoryPath.id(accessoryPath)
        guard try client.listAccessories().contains(where: { $0.id == id }) else {
            throw .command("pairing failed: nothing was granted (the app was told why; 'journalctl -u accessoryd' says it too)")
        }
        return "paired: accessory \(id)\n"
    }

    /// Asks until the person gives an answer the question takes, and sends it.
    private func put(_ question: WirePairingQuestion, _ client: AdminClient) throws(AdminError) {
        guard let prompt = AdminFormat.pairingPrompt(question) else {
            StandardOutput.write("pairing question \(question.prompt) is of a kind this accessoryctl does not know (\(DisplayText.escaped(question.kind)))\n")
            return
        }
        if question.kind == WirePairingQuestion.passkeyDisplay {
            // The accessory's typing decides: nothing to read.
            StandardOutput.write(prompt)
            return
        }
        while true {
            StandardOutput.write(prompt)
            guard let answer = Self.answer(try readLine(), to: question) else {
                StandardOutput.write(question.kind == WirePairingQuestion.passkeyEntry ? "six digits, or n\n" : "y or n\n")
                continue
            }
            do throws(AdminError) {
                try client.answerPairing(request: request, prompt: question.prompt, answer: answer)
            } catch {
                // Timed out or replaced meanwhile: the next question, or the end, follows.
                StandardOutput.write("not answered: \(error)\n")
            }
            return
        }
    }

    /// The wire's answer for what the person typed; nil to ask again.
    static func answer(_ line: String, to question: WirePairingQuestion) -> String? {
        let word = String(line.filter { !$0.isWhitespace }).lowercased()
        if word == "n" || word == "no" { return "no" }
        if question.kind == WirePairingQuestion.passkeyEntry { return PairingAnswerText.isPasskey(word) ? word : nil }
        return word == "y" || word == "yes" ? "yes" : nil
    }
}
