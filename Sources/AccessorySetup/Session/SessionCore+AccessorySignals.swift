import AccessoryCore

extension SessionCore {
    /// On the bus thread, in the order the agent sent it, after the session
    /// signals before it (so an accessory just added is known): keeps
    /// `accessories` current and tells the app. Signals about accessories
    /// this session does not hold are dropped.
    func deliver(_ signal: AccessorySignal) {
        switch signal {
        case .presence(let id, let update):
            let change: AccessoryPresence? = state.withLock { state in
                guard state.phase.takesSignals,
                    let index = state.accessories.firstIndex(where: { $0.id == id })
                else { return nil }
                let before = state.accessories[index]
                let after = update.applied(to: before)
                state.accessories[index] = after
                // A repeated value is no change; an unknown presence is none to report.
                guard after != before, let isPresent = after.isPresent else { return nil }
                return AccessoryPresence(accessory: id, isPresent: isPresent, rssi: after.rssi)
            }
            if let change { presenceChanges.yield(change) }
        case .advertisement(let advertisement):
            let held = state.withLock { state in
                guard state.phase.takesSignals,
                    let index = state.accessories.firstIndex(where: { $0.id == advertisement.accessory })
                else { return false }
                // The agent reports RSSI changes with advertisements only.
                state.accessories[index].rssi = advertisement.rssi
                return true
            }
            if held { advertisements.yield(advertisement) }
        }
    }
}

extension SessionCore.Phase {
    /// Whether signals are the session's: while activation finishes and after;
    /// not after it ended, nor left over from an abandoned activation or
    /// from the accessoryd that left the bus.
    var takesSignals: Bool {
        switch self {
        case .activating, .active: true
        case .new, .restarting, .ended: false
        }
    }
}
