import Testing
@testable import AccessoryCore

/// One app's repeated identical lines, folded into one with a count.
@Suite struct LogFoldTests {
    static let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    @Test func theFirstIsWrittenTheRestCountedAndReportedOnce() {
        var fold = LogFold(window: .seconds(10))
        #expect(fold.admit("acme", "Refused", at: Self.start))
        for i in 1...999 { #expect(!fold.admit("acme", "Refused", at: Self.start.advanced(by: .milliseconds(Int64(i))))) }
        // Another app's line, and another line of the same app, are their own.
        #expect(fold.admit("globex", "Refused", at: Self.start))
        #expect(fold.admit("acme", "Other", at: Self.start))
        #expect(fold.nextDeadline == Self.start.advanced(by: .seconds(10)))
        #expect(fold.due(at: Self.start.advanced(by: .seconds(9))).isEmpty)
        #expect(fold.due(at: Self.start.advanced(by: .seconds(10))) == [LogFold.Folded(app: "acme", line: "Refused", count: 999)])
        #expect(fold.nextDeadline == nil)
        #expect(fold.admit("acme", "Refused", at: Self.start.advanced(by: .seconds(10))))
    }

    @Test func pastItsCapacityLinesAreWrittenNotRemembered() {
        var fold = LogFold(window: .seconds(10), capacity: 2)
        #expect(fold.admit("a", "x", at: Self.start))
        #expect(fold.admit("b", "x", at: Self.start))
        #expect(fold.admit("c", "x", at: Self.start))
        #expect(fold.admit("c", "x", at: Self.start))
    }
}
