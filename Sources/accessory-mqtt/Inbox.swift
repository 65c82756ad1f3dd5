import AccessoryMQTT
import AccessoryPlatform
import Synchronization

/// What the session's tasks hand to the loop: posted from any thread, taken
/// on the loop's, which the wake-up rouses (nothing polls).
final class Inbox: Sendable {
    enum Item: Sendable {
        case bridge(BridgeCore.Input)
        /// accessoryd is out of reach or its session ended; the reason, for the journal.
        case session(String)
        /// What libmosquitto's connect (run on a worker: it resolves the broker's name) returned, and its error said.
        case connectStarted(Int32, String)
    }

    private let items = Mutex<[Item]>([])
    let wakeup: EventLoopWakeup

    init() throws(SystemError) { wakeup = try EventLoopWakeup() }

    func post(_ item: Item) {
        items.withLock { $0.append(item) }
        wakeup.wake()
    }

    func take() -> [Item] { items.withLock { items in defer { items.removeAll() }; return items } }
}
