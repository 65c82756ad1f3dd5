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
        }
    }

    private func send(_ method: PickerAgent1.Method, _ build: (BusReply) -> Void) {
        guard let agent = center.agent else { return }
        do {
            try connection.send(destination: agent.name, path: agent.path, interface: BusNames.pickerAgent,
                                member: method.declaration.name, build)
        } catch {
            logger.warning("Cannot reach the picker agent \(agent.name): \(error)", metadata: ["agent": "\(agent.name)"])
        }
    }
}
