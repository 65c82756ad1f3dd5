import Testing
@testable import AccessoryCore

/// One app's repeated identical lines, folded into one with a count.
@Suite struct LogFoldTests {
    static let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    @Test func theFirstIsWrittenTheRestCountedAndReportedOnce() {
        var fold = LogFold(window: .seconds(10))
        var written: [Bool] = []
        written.append(fold.admit("acme", "Refused", at: Self.start))
        for i in 1...999 { written.append(fold.admit("acme", "Refused", at: Self.start.advanced(by: .milliseconds(Int64(i))))) }
        #expect(written == [true] + Array(repeating: false, count: 999))
        // Another app's line, and another line of the same app, are their own.
        let globex = fold.admit("globex", "Refused", at: Self.start)
        let other = fold.admit("acme", "Other", at: Self.start)
        #expect(globex && other)
        #expect(fold.nextDeadline == Self.start.advanced(by: .seconds(10)))
        let early = fold.due(at: Self.start.advanced(by: .seconds(9)))
        #expect(early.isEmpty)
        let due = fold.due(at: Self.start.advanced(by: .seconds(10)))
        #expect(due == [LogFold.Folded(app: "acme", line: "Refused", count: 999)])
        #expect(fold.nextDeadline == nil)
        let again = fold.admit("acme", "Refused", at: Self.start.advanced(by: .seconds(10)))
        #expect(again)
    }

    @Test func pastItsCapacityLinesAreWrittenNotRemembered() {
        var fold = LogFold(window: .seconds(10), capacity: 2)
        let written = [fold.admit("a", "x", at: Self.start), fold.admit("b", "x", at: Self.start),
                       fold.admit("c", "x", at: Self.start), fold.admit("c", "x", at: Self.start)]
        #expect(written == [true, true, true, true])
    }
}
