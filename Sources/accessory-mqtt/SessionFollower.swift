import AccessoryCore
import AccessoryMQTT
import AccessorySetup

/// Keeps a session with accessoryd and hands what it says to the loop: the
/// accessories approved for this app at activation, then their changes,
/// presence and advertisements. A restart of accessoryd is ridden through by
/// the client library (one `serviceRestarted` event, after which the
/// accessories are read again); should the session end all the same, a new
/// one is opened, with backoff, and its activation re-reads the accessories.
struct SessionFollower: Sendable {
    let busAddress: String?
    let inbox: Inbox

    /// Its waits are `Task.sleep`, an exception to the injected scheduler
    /// (README, "Time"): the bridge is an app on the async client library,
    /// which has no clock to inject, and a retry's backoff decides nothing a
    /// test asserts; the sleep ends early when the task is cancelled.
    func run() async {
        var delay: Duration = .seconds(1)
        while !Task.isCancelled {
            let session = AccessorySession(busAddress: busAddress)
            let accessories: [Accessory]
            do {
                accessories = try await session.activate()
            } catch {
                inbox.post(.session("cannot activate a session with accessoryd: \(error); retrying in \(delay)"))
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(60))
                continue
            }
            delay = .seconds(1)
            inbox.post(.bridge(.activated(accessories.map(Self.bridged))))
            await follow(session)
            session.invalidate()
            inbox.post(.session("the session with accessoryd ended; opening a new one"))
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Until the session ends: its three streams, read side by side.
    private func follow(_ session: AccessorySession) async {
        let inbox = self.inbox
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in session.events {
                    switch event.eventType {
                    case .accessoryAdded, .accessoryChanged:
                        if let accessory = event.accessory { inbox.post(.bridge(.accessoryUpdated(Self.bridged(accessory)))) }
                    case .accessoryRemoved:
                        if let accessory = event.accessory { inbox.post(.bridge(.accessoryRemoved(accessory.id))) }
                    case .serviceRestarted:
                        inbox.post(.session("accessoryd restarted; the session is active again"))
                        inbox.post(.bridge(.activated(session.accessories.map(Self.bridged))))
                    default: break
                    }
                }
            }
            group.addTask {
                for await change in session.presenceChanges {
                    inbox.post(.bridge(.presence(change.accessory, isPresent: change.isPresent, rssi: change.rssi)))
                }
            }
            group.addTask {
                for await advertisement in session.advertisements {
                    inbox.post(.bridge(.advertisement(advertisement.accessory, rssi: advertisement.rssi, data: advertisement.data)))
                }
            }
            // The events stream ends with the session; the others end with it too.
            await group.next()
            group.cancelAll()
        }
    }

    static func bridged(_ accessory: Accessory) -> BridgedAccessory {
        BridgedAccessory(
            id: accessory.id, name: accessory.displayName, state: accessory.state, isPresent: accessory.isPresent,
            rssi: accessory.rssi)
    }
}
