import AccessorySetup

/// What an app that watches its accessories does: prints them coming and
/// going, and their advertisements (a sensor's readings), as they come; 0
/// after `seconds`, 1 when the session ended first.
func follow(_ session: AccessorySession, for seconds: Int) async -> Int32 {
    say("following for \(seconds) s")
    let sessionEnded = await withTaskGroup(of: Bool.self) { group in
        // Each reader returns true when its stream ends, which is the session ending.
        group.addTask {
            for await change in session.presenceChanges { say("presence: \(change)") }
            return true
        }
        group.addTask {
            for await advertisement in session.advertisements { say("advertisement: \(advertisement)") }
            return true
        }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return false
        }
        // Both readers to their end (so none of what came before is lost), or the time.
        var ended = 0
        while let streamEnded = await group.next(), streamEnded {
            ended += 1
            if ended == 2 { break }
        }
        group.cancelAll()
        return ended == 2
    }
    if sessionEnded {
        printError("the session ended while following")
        return 1
    }
    session.invalidate()
    return 0
}
