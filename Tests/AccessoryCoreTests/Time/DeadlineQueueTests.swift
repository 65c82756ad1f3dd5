import Testing
import TestSupport
@testable import AccessoryCore

@Suite struct DeadlineQueueTests {
    /// What a loop does when its timer fires: hand out the batch one entry
    /// at a time, running each entry's work, which may change the queue.
    func fire(_ queue: inout DeadlineQueue<String>, at now: MonotonicInstant,
              _ work: (String, inout DeadlineQueue<String>) -> Void = { _, _ in }) -> [String] {
        var fired: [String] = []
        queue.beginFiring(at: now)
        while let entry = queue.nextToFire() {
            fired.append(entry.payload)
            work(entry.payload, &queue)
        }
        return fired
    }

    @Test func everyDeadlinePassedDuringASimulatedSuspendFiresOnceInDueOrder() {
        let clock = ManualClock(MonotonicInstant(nanoseconds: 5_000_000_000))
        var queue = DeadlineQueue<String>()
        // Inserted out of due order on purpose.
        queue.insert("sweep", at: clock.now.advanced(by: .seconds(60)))
        queue.insert("presence", at: clock.now.advanced(by: .seconds(10)))
        queue.insert("approval", at: clock.now.advanced(by: .seconds(30)))
        queue.insert("tomorrow", at: clock.now.advanced(by: .seconds(86_400)))
        #expect(fire(&queue, at: clock.now).isEmpty)
        #expect(queue.earliest == clock.now.advanced(by: .seconds(10)))

        // The board sleeps for 15 minutes: the clock jumps past three deadlines at once.
        let resumed = clock.now.advanced(by: .seconds(900))
        clock.advance(to: resumed)
        #expect(fire(&queue, at: clock.now) == ["presence", "approval", "sweep"])
        #expect(fire(&queue, at: clock.now).isEmpty, "none fires twice")
        #expect(queue.count == 1, "none is lost")
        #expect(queue.earliest == MonotonicInstant(nanoseconds: 5_000_000_000).advanced(by: .seconds(86_400)))

        clock.advance(by: .seconds(86_400))
        #expect(fire(&queue, at: clock.now) == ["tomorrow"])
        #expect(queue.isEmpty)
        #expect(queue.earliest == nil)
    }

    @Test func anEntryIsDueAtItsInstantNotBefore() {
        let clock = ManualClock()
        var queue = DeadlineQueue<String>()
        let due = clock.now.advanced(by: .seconds(1))
        queue.insert("a", at: due)
        #expect(fire(&queue, at: MonotonicInstant(nanoseconds: due.nanoseconds - 1)).isEmpty)
        #expect(fire(&queue, at: due) == ["a"])
    }

    @Test func entriesDueAtTheSameInstantFireInInsertionOrder() {
        var queue = DeadlineQueue<String>()
        let instant = MonotonicInstant(nanoseconds: 1_000)
        for name in ["first", "second", "third"] { queue.insert(name, at: instant) }
        queue.insert("earlier", at: MonotonicInstant(nanoseconds: 999))
        #expect(queue.takeDue(at: instant).map(\.payload) == ["earlier", "first", "second", "third"])
    }

    @Test func aPastInstantIsDueAtOnce() {
        let clock = ManualClock(MonotonicInstant(nanoseconds: 10_000))
        var queue = DeadlineQueue<String>()
        queue.insert("late", at: .zero)
        #expect(queue.earliest == .zero)
        #expect(fire(&queue, at: clock.now) == ["late"])
    }

    @Test func aCancelledEntryNeverFires() {
        let clock = ManualClock()
        var queue = DeadlineQueue<String>()
        let kept = queue.insert("kept", at: clock.now.advanced(by: .seconds(2)))
        let cancelled = queue.insert("cancelled", at: clock.now.advanced(by: .seconds(1)))
        #expect(queue.cancel(cancelled) == "cancelled")
        #expect(queue.cancel(cancelled) == nil, "a second cancel finds nothing")
        #expect(queue.earliest == clock.now.advanced(by: .seconds(2)), "the next deadline moves back")
        clock.advance(by: .seconds(5))
        #expect(fire(&queue, at: clock.now) == ["kept"])
        #expect(queue.cancel(kept) == nil, "a fired entry is gone")
    }

    @Test func workThatCancelsALaterEntryOfTheSameBatchStopsIt() {
        let clock = ManualClock()
        var queue = DeadlineQueue<String>()
        queue.insert("first", at: clock.now.advanced(by: .seconds(1)))
        let second = queue.insert("second", at: clock.now.advanced(by: .seconds(2)))
        queue.insert("third", at: clock.now.advanced(by: .seconds(3)))
        clock.advance(by: .seconds(10))
        let fired = fire(&queue, at: clock.now) { name, queue in
            if name == "first" { #expect(queue.cancel(second) == "second") }
        }
        #expect(fired == ["first", "third"])
        #expect(queue.isEmpty)
    }

    @Test func workThatReArmsWaitsForTheNextFiringEvenWhenAlreadyDue() {
        let clock = ManualClock()
        var queue = DeadlineQueue<String>()
        queue.insert("tick", at: clock.now)
        queue.insert("other", at: clock.now)
        let fired = fire(&queue, at: clock.now) { name, queue in
            // Due now and due later: neither joins the batch under way.
            if name == "tick" {
                queue.insert("tick again", at: clock.now)
                queue.insert("tick later", at: clock.now.advanced(by: .seconds(1)))
            }
        }
        #expect(fired == ["tick", "other"])
        #expect(queue.earliest == clock.now)
        #expect(fire(&queue, at: clock.now) == ["tick again"])
        clock.advance(by: .seconds(1))
        #expect(fire(&queue, at: clock.now) == ["tick later"])
        #expect(queue.isEmpty)
    }

    @Test func anEntrySetAsideAndNotHandedOutStillCountsAndFiresFirst() {
        var queue = DeadlineQueue<String>()
        queue.insert("a", at: MonotonicInstant(nanoseconds: 1))
        queue.insert("b", at: MonotonicInstant(nanoseconds: 2))
        queue.beginFiring(at: MonotonicInstant(nanoseconds: 1))
        #expect(queue.count == 2)
        #expect(queue.earliest == MonotonicInstant(nanoseconds: 1))
        #expect(queue.takeDue(at: MonotonicInstant(nanoseconds: 2)).map(\.payload) == ["a", "b"])
    }

    @Test func farDeadlinesDoNotOverflow() {
        var queue = DeadlineQueue<String>()
        // The clock's end, where `advanced(by:)` saturates.
        let never = MonotonicInstant(nanoseconds: 1).advanced(by: .seconds(Int64.max)).advanced(by: .seconds(Int64.max))
        #expect(never.nanoseconds == .max)
        queue.insert("never", at: never)
        queue.insert("soon", at: MonotonicInstant(nanoseconds: 1))
        #expect(queue.takeDue(at: MonotonicInstant(nanoseconds: .max - 1)).map(\.payload) == ["soon"])
        #expect(queue.earliest == never)
        #expect(queue.takeDue(at: never).map(\.payload) == ["never"])
    }

    /// Random inserts, cancels, clock jumps (some far, like a suspend) and
    /// firings against the obvious model: the entries due, sorted by
    /// instant then insertion. Every entry fires exactly once unless cancelled.
    @Test func matchesASortedModelUnderRandomOperations() {
        var random = SplitMix64(seed: 0x0DEAD_11E5)
        for _ in 0..<50 {
            let clock = ManualClock()
            var queue = DeadlineQueue<Int>()
            var model: [(token: DeadlineQueue<Int>.Token, due: MonotonicInstant, id: Int)] = []
            var firedIDs: [Int] = []
            var cancelledIDs: Set<Int> = []
            var nextID = 0
            for _ in 0..<200 {
                switch random.next() % 10 {
                case 0..<5:
                    let due = clock.now.advanced(by: .milliseconds(Int64(random.next() % 5_000)) - .milliseconds(500))
                    model.append((queue.insert(nextID, at: due), due, nextID))
                    nextID += 1
                case 5, 6:
                    guard !model.isEmpty else { continue }
                    let victim = model.remove(at: Int(random.next() % UInt64(model.count)))
                    #expect(queue.cancel(victim.token) == victim.id)
                    cancelledIDs.insert(victim.id)
                case 7:
                    clock.advance(by: .seconds(Int64(random.next() % 3_600)))
                default:
                    let expected = model.filter { $0.due <= clock.now }
                        .sorted { ($0.due, $0.id) < ($1.due, $1.id) }.map(\.id)
                    model.removeAll { $0.due <= clock.now }
                    let fired = queue.takeDue(at: clock.now).map(\.payload)
                    #expect(fired == expected)
                    firedIDs += fired
                }
                #expect(queue.count == model.count)
                #expect(queue.earliest == model.map(\.due).min())
            }
            clock.advance(to: MonotonicInstant(nanoseconds: .max))
            firedIDs += queue.takeDue(at: clock.now).map(\.payload)
            #expect(queue.isEmpty)
            #expect(firedIDs.count == Set(firedIDs).count, "none fires twice")
            #expect(Set(firedIDs).union(cancelledIDs) == Set(0..<nextID), "none is lost")
        }
    }
}
