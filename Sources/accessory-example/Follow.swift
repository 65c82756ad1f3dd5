import AccessorySetup

/// What an app that watches its accessories does: prints them coming and
/// going, and their advertisements (a sensor's readings), as they come; 0
/// after `seconds`, 1 when the session ended first. A restart of accessoryd
/// is no end: the library activates the session again, says so with one
/// `serviceRestarted` event, and the readings go on coming on the same streams.
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
            for await event in session.events where event.eventType == .serviceRestarted {
                say("event: \(event)")
                for accessory in session.accessories { say("  " + describe(accessory)) }
            }
            return true
        }
        group.addTask {
            // How long the example follows, a `Task.sleep`: an exception to the
            // injected scheduler (README, "Time"), as the async client library has no clock.
            try? await Task.sleep(for: .seconds(seconds))
            return false
        }
        // The readers to their end (so none of what came before is lost), or the time.
        var ended = 0
        while let streamEnded = await group.next(), streamEnded {
            ended += 1
            if ended == 3 { break }
        }
        group.cancelAll()
        return ended == 3
    }
    if sessionEnded {
        printError("the session ended while following")
        return 1
    }
    session.invalidate()
    return 0
}
