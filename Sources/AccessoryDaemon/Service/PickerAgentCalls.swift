import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Logging

/// `org.accessoryagent.PickerAgent1`: the calls accessoryd makes on the
/// registered picker agent, without waiting for it. Each event names its
/// method's declaration (no default), so a call and its declaration cannot drift.
struct PickerAgentCalls {
    let connection: BusConnection
    let center: AuthorizationCenter
    let logger: Logger

    func tell(_ event: AuthorizationNotice.AgentEvent) {
        switch event {
        case .requestAdded(let request):
            send(.requestAdded) {
                $0.append(request.number).append("\(request.app)").append(strings: request.itemNames).append(strings: request.itemImages)
            }
        case .candidateAdded(let request, let candidate):
            send(.candidateAdded) {
                $0.append(request.number).append(candidate.number).append(request.itemName(of: candidate))
                    .append(candidate.name).append("\(candidate.identity)").append(BusRSSI.encode(candidate.rssi))
                    .append(request.image(of: candidate))
            }
        case .requestEnded(let number, let outcome):
            send(.requestEnded) { $0.append(number).append(outcome) }
        case .pairingQuestion(let question, let approver):
            let (kind, number) = WirePairingQuestion.kindAndNumber(of: question.prompt)
            send(.pairingQuestion, onlyTo: approver) {
                $0.append(question.id.request).append(question.id.prompt).append(kind).append(number)
            }
        case .pairingQuestionWithdrawn(let id, let approver):
            send(.pairingQuestionWithdrawn, onlyTo: approver) { $0.append(id.request).append(id.prompt) }
        }
    }

    /// `onlyTo`: a pairing's questions go to the agent that approved it, not to one registered since.
    private func send(_ method: PickerAgent1.Method, onlyTo approver: String? = nil, _ build: (BusReply) -> Void) {
        guard let agent = center.agent, approver == nil || approver == agent.name else { return }
        do {
            try connection.send(destination: agent.name, path: agent.path, interface: BusNames.pickerAgent,
                                member: method.declaration.name, build)
        } catch {
            logger.warning("Cannot reach the picker agent \(agent.name): \(error)", metadata: ["agent": "\(agent.name)"])
        }
    }
}
