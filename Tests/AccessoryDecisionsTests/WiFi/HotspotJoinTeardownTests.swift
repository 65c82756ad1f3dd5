import AccessoryCodecs
import Testing

@testable import AccessoryDecisions

/// The teardown of a hotspot join as values: the order of what a join
/// undoes, and what it waits for first, with no wpa_supplicant and no loop.
@Suite struct HotspotJoinTeardownTests {
    static let temporary = WPANetworkID(7)!
    static let previous = WPANetworkID(0)!
    static let undo: [WPACommand] = [.removeNetwork(temporary), .selectNetwork(previous)]

    @Test func leavingWaitsForTheDHCPClientThenUndoesInOrderAndReleasesOnce() {
        var teardown = HotspotJoinTeardown()
        #expect(!teardown.hasLeft)
        #expect(teardown.handle(.leave, undo: Self.undo) == [.stopFollowing])
        #expect(teardown.hasLeft)
        // Leaving again changes nothing: the first leave is under way.
        #expect(teardown.handle(.leave, undo: Self.undo) == [])
        #expect(teardown.handle(.dhcpStopped, undo: Self.undo) == [.send(.removeNetwork(Self.temporary))])
        #expect(teardown.handle(.undoAnswered(failed: false), undo: Self.undo) == [.send(.selectNetwork(Self.previous))])
        #expect(teardown.handle(.undoAnswered(failed: false), undo: Self.undo) == [.finish(restored: true), .release])
        #expect(teardown.isReleased)
        #expect(teardown.handle(.undoAnswered(failed: false), undo: Self.undo) == [])
        #expect(teardown.handle(.leave, undo: Self.undo) == [])
    }

    @Test func aStartRequestOutWhenLeftIsAnsweredBeforeTheUndo() {
        var teardown = HotspotJoinTeardown()
        #expect(teardown.handle(.stepSent, undo: nil) == [])
        #expect(teardown.handle(.leave, undo: nil) == [.stopFollowing])
        #expect(teardown.handle(.dhcpStopped, undo: nil) == [])
        // The answer was ADD_NETWORK's: the network it added is undone too.
        #expect(teardown.handle(.stepAnswered, undo: Self.undo) == [.send(.removeNetwork(Self.temporary))])
    }

    @Test func aFailedUndoCommandStillSendsTheRestAndEndsNotRestored() {
        var teardown = HotspotJoinTeardown()
        _ = teardown.handle(.leave, undo: Self.undo)
        _ = teardown.handle(.dhcpStopped, undo: Self.undo)
        #expect(teardown.handle(.undoAnswered(failed: true), undo: Self.undo) == [.send(.selectNetwork(Self.previous))])
        #expect(teardown.handle(.undoAnswered(failed: false), undo: Self.undo) == [.finish(restored: false), .release])
    }

    @Test func aJoinThatChangedNothingIsReleasedAtOnce() {
        var teardown = HotspotJoinTeardown()
        _ = teardown.handle(.leave, undo: nil)
        #expect(teardown.handle(.dhcpStopped, undo: nil) == [.release])
    }

    @Test func aSupplicantThatWentAwayLeavesNothingToSend() {
        var teardown = HotspotJoinTeardown()
        #expect(teardown.handle(.supplicantGone, undo: Self.undo) == [])
        _ = teardown.handle(.leave, undo: Self.undo)
        #expect(teardown.handle(.dhcpStopped, undo: Self.undo) == [.abandon, .release])
    }

    @Test func leavingWithoutTheLoopTakesOverFromTheCommandInFlight() {
        var teardown = HotspotJoinTeardown()
        _ = teardown.handle(.leave, undo: Self.undo)
        _ = teardown.handle(.dhcpStopped, undo: Self.undo)
        _ = teardown.handle(.undoAnswered(failed: true), undo: Self.undo)
        let rest = teardown.takeOver(undo: Self.undo)
        #expect(rest?.commands == [.selectNetwork(Self.previous)])
        #expect(rest?.restored == false)
        #expect(teardown.finishBlocking(restored: false) == [.finish(restored: false), .release])
        #expect(teardown.takeOver(undo: Self.undo) == nil)
        #expect(teardown.finishBlocking(restored: true) == [])
    }

    @Test func leavingWithoutTheLoopBeforeAnyChangeOnlyReleases() {
        var teardown = HotspotJoinTeardown()
        #expect(teardown.takeOver(undo: nil) == nil)
        #expect(teardown.finishBlocking(restored: nil) == [.release])
    }
}
