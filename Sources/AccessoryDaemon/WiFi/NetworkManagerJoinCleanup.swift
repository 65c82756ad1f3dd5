import AccessoryCore
import AccessoryPlatform
import AccessoryRadios

/// Undoes a join through NetworkManager from its record: deletes the
/// volatile profile if NetworkManager still has it (deleting deactivates
/// it), then sees that the uplink (the connection active on the interface
/// before the join) is active on the interface again, activating it when it
/// is not. With a loop, `done` is called only once the uplink is activated
/// (or `uplinkWait` has passed); without one (blocking client), once
/// NetworkManager accepted its activation.
///
/// Only the profile is the join's own: once it is gone nothing of the join
/// is left to undo, and an uplink that does not come back (its access point
/// slow or away) is NetworkManager's to retry, as it does for any profile
/// that autoconnects. That outcome is `uplinkNotBack`, not `failed`: the
/// record is not kept for a next start that would only race NetworkManager.
///
/// The same steps run on the loop (a leave) and blocking (a crash's
/// leftovers at the next start, the daemon stopping): the client decides.
final class NetworkManagerJoinCleanup {
    enum Outcome: Equatable {
        case restored
        /// The profile is gone but there was no uplink to bring back, it no longer
        /// exists, or another connection has taken the interface since.
        case noUplink
        /// The profile is gone; the uplink is not active (yet), for the reason given.
        case uplinkNotBack(String)
        /// The profile may still be there: the record is kept for the next start.
        case failed(String)
    }

    private let client: NetworkManagerClient
    private let record: NetworkManagerJoinRecord
    /// Where the polls are armed; nil when no loop runs (the cleanup then waits for nothing).
    private weak var scheduler: (any Scheduler)?
    private let uplinkWait: Duration
    private var done: ((Outcome) -> Void)?
    private var pollTimer: TimerToken?
    private var polls = 0
    private var activations = 0
    static let pollInterval: Duration = .milliseconds(500)

    init(client: NetworkManagerClient, record: NetworkManagerJoinRecord, scheduler: (any Scheduler)?, uplinkWait: Duration = .seconds(60)) {
        self.client = client
        self.record = record
        self.scheduler = scheduler
        self.uplinkWait = uplinkWait
    }

    func run(_ done: @escaping (Outcome) -> Void) {
        self.done = done
        client.profile(uuid: record.profileUUID) { [self] outcome in
            switch outcome {
            case .failure(let error): end(.failed("cannot look for the join's profile: \(error)"))
            case .success(nil): restoreUplink()
            case .success(let path?):
                client.delete(profile: path) { [self] deleted in
                    if case .failure(let error) = deleted { lookAgain(after: error) } else { restoreUplink() }
                }
            }
        }
    }

    /// A Delete refused because NetworkManager was removing the volatile profile itself
    /// (the activation failed: it says "Error checking authorization: connection was
    /// deleted") is no failure: whether the profile is still there decides, not the error.
    private func lookAgain(after error: NetworkManagerError) {
        client.profile(uuid: record.profileUUID) { [self] outcome in
            if case .success(nil) = outcome { return restoreUplink() }
            end(.failed("cannot delete the join's profile: \(error)"))
        }
    }

    func cancel() {
        done = nil
        if let pollTimer { scheduler?.cancel(pollTimer) }
        pollTimer = nil
    }

    private func restoreUplink() {
        guard !record.uplinkUUID.isEmpty else { return end(.noUplink) }
        client.device(of: record.interface) { [self] device in
            guard case .success(let device) = device else {
                if case .failure(.notFound) = device, retryLater({ [weak self] in self?.restoreUplink() }) {
                    return  // a NetworkManager that just (re)started adds its devices shortly
                }
                if case .failure(let error) = device { end(.uplinkNotBack("cannot find \(record.interface) in NetworkManager: \(error)")) }
                return
            }
            client.objectPathProperty(device, NetworkManagerClient.deviceInterface, "ActiveConnection") { [self] active in
                switch active {
                case .failure(let error): end(.uplinkNotBack("cannot read \(record.interface)'s active connection: \(error)"))
                case .success(let path) where path != "/":
                    client.activeConnection(path) { [self] running in
                        switch running {
                        case .success(let running) where running.uuid == record.uplinkUUID && running.state <= 2:
                            waitForActivated(path)
                        case .success(let running) where running.uuid != record.profileUUID && running.uuid != record.uplinkUUID
                            && running.state <= 2:
                            // Someone else (an administrator, another program) put the interface on
                            // another network since: theirs to keep, not ours to undo.
                            end(.noUplink)
                        default:
                            activateUplink(device: device)
                        }
                    }
                case .success:
                    activateUplink(device: device)
                }
            }
        }
    }

    private func activateUplink(device: String) {
        activations += 1
        guard activations <= 3 else { return end(.uplinkNotBack("the uplink went down again after three activations")) }
        client.profile(uuid: record.uplinkUUID) { [self] uplink in
            switch uplink {
            case .failure(let error): end(.uplinkNotBack("cannot look for the uplink's profile: \(error)"))
            case .success(nil): end(.noUplink)
            case .success(let path?):
                client.activate(path, device: device) { [self] activated in
                    switch activated {
                    case .failure(.notFound) where retryLater({ [weak self] in self?.restoreUplink() }):
                        // A NetworkManager that just restarted has not made the device available
                        // yet: not an activation that went down, so it is not counted as one.
                        activations -= 1
                    case .failure(let error): end(.uplinkNotBack("cannot activate the uplink again: \(error)"))
                    case .success(let active): waitForActivated(active)
                    }
                }
            }
        }
    }

    /// Asks the active connection's state every `pollInterval` until it is
    /// activated: NetworkManager's autoconnect may be activating the uplink
    /// at the same time, and either way only the state says it is back.
    private func waitForActivated(_ active: String) {
        guard !client.blocking, scheduler != nil else { return end(.restored) }
        client.activeConnection(active) { [self] state in
            switch state {
            case .success(let running) where running.state == 2: end(.restored)
            // It went down again (failed, or something else was activated), or NetworkManager
            // has already disposed of it: look once more.
            case .success(let running) where running.state >= 3: restoreUplink()
            case .failure(.notFound): restoreUplink()
            default:
                guard retryLater({ [weak self] in self?.waitForActivated(active) }) else {
                    return end(.uplinkNotBack("the uplink did not come back within \(uplinkWait)"))
                }
            }
        }
    }

    /// Runs `step` again after `pollInterval`, on the loop, while `uplinkWait` allows; false when it does not.
    private func retryLater(_ step: @escaping () -> Void) -> Bool {
        guard !client.blocking, let scheduler else { return false }
        polls += 1
        guard Self.pollInterval * polls < uplinkWait else { return false }
        pollTimer = scheduler.at(scheduler.now.advanced(by: Self.pollInterval)) { [weak self] in
            self?.pollTimer = nil
            step()
        }
        return true
    }

    private func end(_ outcome: Outcome) {
        let done = self.done
        self.done = nil
        done?(outcome)
    }
}
