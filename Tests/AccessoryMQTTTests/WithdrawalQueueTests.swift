import AccessoryCore
import AccessoryMQTT
import Testing

/// While the broker is away: what must not be lost (a grant's withdrawal, its
/// empty retained configs) waits in a bounded queue, drops counted; the rest
/// is current state, sent afresh on reconnection and never stale. Time moves
/// through a ManualScheduler that fires the core's ticks, as the bridge's loop does.
@Suite struct WithdrawalQueueTests {
    static let topics = PayloadTests.topics
    static func sensor(_ number: UInt64, name: String) -> BridgedAccessory {
        BridgedAccessory(id: AccessoryID(number), name: name, isPresent: true, rssi: -50)
    }
    static let porch = sensor(0xA1, name: "Porch")
    static let shed = sensor(0xA2, name: "Shed")
    static let cellar = sensor(0xA3, name: "Cellar")

    /// The core as the bridge's loop drives it: each input handled at the
    /// scheduler's time, and a tick armed at the core's next deadline.
    final class Driver {
        let scheduler = ManualScheduler()
        var core: BridgeCore
        var sent: [Publication] = []
        private var tick: TimerToken?

        init(limit: Int) {
            core = BridgeCore(topics: WithdrawalQueueTests.topics, minimumInterval: .seconds(10), withdrawalLimit: limit)
        }

        @discardableResult
        func handle(_ input: BridgeCore.Input) -> [Publication] {
            let out = core.handle(input, now: scheduler.now)
            sent += out
            if let tick { scheduler.cancel(tick) }
            tick = core.nextDeadline.map { deadline in
                scheduler.at(deadline) { [unowned self] in
                    tick = nil
                    handle(.tick)
                }
            }
            return out
        }
    }

    static func topicsOf(_ id: AccessoryID) -> Set<String> {
        [topics.state(id), topics.presence(id), topics.advertisement(id),
         "homeassistant/device_tracker/accessory-mqtt_hall/\(id)_presence/config",
         "homeassistant/sensor/accessory-mqtt_hall/\(id)_rssi/config"]
    }

    @Test func withdrawalsPastTheLimitDropTheOldestAndAreCounted() {
        let driver = Driver(limit: 2)
        driver.handle(.activated([Self.porch, Self.shed, Self.cellar]))
        driver.handle(.brokerConnected)
        driver.handle(.brokerDisconnected)
        driver.sent = []

        #expect(driver.handle(.accessoryRemoved(Self.porch.id)).isEmpty)
        #expect(driver.core.droppedWithdrawal == nil)
        driver.handle(.accessoryRemoved(Self.shed.id))
        #expect(driver.core.withdrawals.accessories == [Self.porch.id, Self.shed.id])
        // The third does not fit: the oldest goes, counted and named for the log.
        driver.handle(.accessoryRemoved(Self.cellar.id))
        #expect(driver.core.droppedWithdrawal == Self.porch.id)
        #expect(driver.core.withdrawals.dropped == 1)
        #expect(driver.core.withdrawals.accessories == [Self.shed.id, Self.cellar.id])
        // The next input clears the note; the count stays.
        driver.handle(.tick)
        #expect(driver.core.droppedWithdrawal == nil)
        #expect(driver.core.withdrawals.dropped == 1)
        #expect(driver.sent.isEmpty)

        driver.scheduler.advance(by: .seconds(60))
        let sent = driver.handle(.brokerConnected)
        let emptied = Set(sent.filter { $0.payload.isEmpty && $0.retain }.map(\.topic))
        #expect(emptied == Self.topicsOf(Self.shed.id).union(Self.topicsOf(Self.cellar.id)))
        #expect(!sent.contains { $0.topic.contains("\(Self.porch.id)") })
        #expect(driver.core.withdrawals.isEmpty)
        #expect(driver.core.withdrawals.dropped == 1)
    }

    @Test func aGrantRemovedAndGivenAgainWhileAwayIsPublishedNotWithdrawn() {
        let driver = Driver(limit: 4)
        driver.handle(.activated([Self.porch]))
        driver.handle(.brokerConnected)
        driver.handle(.brokerDisconnected)
        driver.handle(.accessoryRemoved(Self.porch.id))
        var renamed = Self.porch
        renamed.name = "Front Porch"
        driver.handle(.accessoryUpdated(renamed))
        #expect(driver.core.withdrawals.isEmpty)
        let sent = driver.handle(.brokerConnected)
        #expect(!sent.contains { $0.payload.isEmpty })
        #expect(sent.first { $0.topic == Self.topics.state(Self.porch.id) }?.payload.contains("Front Porch") == true)
    }

    @Test func aChangeHeldByTheRateLimitIsNotSentWhileAwayNorLaterAsCurrent() throws {
        let driver = Driver(limit: 4)
        driver.handle(.activated([Self.porch]))
        driver.handle(.brokerConnected)
        let presence = Self.topics.presence(Self.porch.id)
        driver.scheduler.advance(by: .seconds(1))
        // An RSSI change inside the interval waits for the tick at 10 s...
        #expect(driver.handle(.presence(Self.porch.id, isPresent: true, rssi: -70)).isEmpty)
        #expect(driver.scheduler.pending == 1)
        // ...but the broker goes first: nothing is due while it is away.
        driver.handle(.brokerDisconnected)
        driver.sent = []
        driver.scheduler.advance(by: .seconds(30))
        #expect(driver.sent.isEmpty)
        driver.handle(.presence(Self.porch.id, isPresent: false, rssi: nil))
        driver.handle(.presence(Self.porch.id, isPresent: true, rssi: -64))
        // On reconnection only the current value, once; no queued history after it.
        let sent = driver.handle(.brokerConnected)
        #expect(sent.filter { $0.topic == presence }
            == [Publication(topic: presence, payload: #"{"state":"home","gateway":"hall","rssi":-64}"#)])
        driver.sent = []
        driver.scheduler.advance(by: .seconds(60))
        #expect(driver.sent.isEmpty)
    }

    @Test func theQueueKeepsEachAccessoryOnceInOrder() {
        var queue = PendingWithdrawals(limit: 2)
        #expect(queue.add(AccessoryID(1)) == nil)
        #expect(queue.add(AccessoryID(1)) == nil)
        #expect(queue.add(AccessoryID(2)) == nil)
        queue.cancel(AccessoryID(1))
        #expect(queue.add(AccessoryID(3)) == nil)
        #expect(queue.add(AccessoryID(4)) == AccessoryID(2))
        #expect(queue.takeAll() == [AccessoryID(3), AccessoryID(4)])
        #expect(queue.isEmpty)
        #expect(queue.dropped == 1)
    }
}
