import AccessoryCore
import AccessoryPlatform

/// accessoryd's `org.bluez.Agent1` (doc/org.bluez.Agent.rst): registered
/// with the capability the pairing asks for, because bluetoothd reads the
/// capability from the registration when Pair is called (src/device.c); a
/// pairing that asks for another capability re-registers, unless a pairing
/// with the current one still runs, and it is unregistered once no pairing
/// is left. Calls are taken only from bluetoothd's
/// unique name and only for a device accessoryd is pairing; the prompt's
/// method call stays unanswered until the procedure replies.
extension BluezPairing {
    /// Runs `then` once the agent is registered with `capability`, or with why it cannot be.
    func withAgent(_ capability: PairingIOCapability, then: @escaping (BusError?) -> Void) {
        agentWaiters.append((capability, then))
        nextAgentWaiter()
    }

    private func nextAgentWaiter() {
        guard !agentBusy, let (capability, waiter) = agentWaiters.first else { return }
        if registered == capability {
            agentWaiters.removeFirst()
            waiter(nil)
            nextAgentWaiter()
            return
        }
        if registered != nil, pairings.values.contains(where: { $0.stage == .pairing && $0.capability == registered }) {
            agentWaiters.removeFirst()
            waiter(BusError(name: "org.bluez.Error.InProgress",
                            message: "another pairing with the \(registered!.rawValue) capability runs"))
            nextAgentWaiter()
            return
        }
        agentBusy = true
        let register = { [weak self] in
            guard let self else { return }
            do {
                try bus.callAsync(destination: Self.service, path: BluezObjectPath.root, interface: "org.bluez.AgentManager1",
                                  member: "RegisterAgent", timeout: Self.callTimeout, autoStart: false, { call in
                    call.append(objectPath: Self.agentPath).append(capability.rawValue)
                }) { [weak self] result in self?.agentRegistered(capability, result) }
            } catch {
                agentRegistered(capability, .failure(BusError(name: "org.freedesktop.DBus.Error.Failed", message: "\(error)")))
            }
        }
        guard registered != nil else { return register() }
        // One agent per connection: the old registration goes first, whatever its answer.
        do {
            try bus.callAsync(destination: Self.service, path: BluezObjectPath.root, interface: "org.bluez.AgentManager1",
                              member: "UnregisterAgent", timeout: Self.callTimeout, autoStart: false, { call in
                call.append(objectPath: Self.agentPath)
            }) { [weak self] _ in
                self?.registered = nil
                register()
            }
        } catch {
            registered = nil
            register()
        }
    }

    /// Unregisters the agent once no pairing of accessoryd's is left. BlueZ
    /// makes the first agent registered its default agent: on a gateway with
    /// no agent of its own, accessoryd's would otherwise stay the default,
    /// set every controller's IO capability to its own and be asked about
    /// pairings that are not accessoryd's (it refuses them).
    func releaseAgentIfIdle() {
        guard registered != nil, !agentBusy, agentWaiters.isEmpty, pairings.isEmpty else { return }
        agentBusy = true
        let released = { [weak self] in
            guard let self else { return }
            agentBusy = false
            registered = nil
            logger.debug("Pairing agent unregistered from bluetoothd: no pairing of accessoryd's runs")
            nextAgentWaiter()
        }
        do {
            try bus.callAsync(destination: Self.service, path: BluezObjectPath.root, interface: "org.bluez.AgentManager1",
                              member: "UnregisterAgent", timeout: Self.callTimeout, autoStart: false, { call in
                call.append(objectPath: Self.agentPath)
            }) { _ in released() }
        } catch {
            released()
        }
    }

    private func agentRegistered(_ capability: PairingIOCapability, _ result: Result<BusMessage, BusError>) {
        agentBusy = false
        guard !agentWaiters.isEmpty else { return }
        let (_, waiter) = agentWaiters.removeFirst()
        switch result {
        case .success(let reply):
            // The reply comes from whoever owns org.bluez: bluetoothd's unique name.
            guard let sender = reply.sender, sender.hasPrefix(":") else {
                waiter(BusError(name: "org.freedesktop.DBus.Error.Failed", message: "RegisterAgent's reply has no sender"))
                break
            }
            bluezName = sender
            registered = capability
            logger.debug("Pairing agent registered with bluetoothd (\(sender)) as \(capability.rawValue)")
            waiter(nil)
        case .failure(let error):
            waiter(error)
        }
        nextAgentWaiter()
    }

    // MARK: Agent1

    /// One method call to the agent's object; nil for what is not Agent1's (sd-bus answers it).
    func agentCall(_ call: BusMessage) -> BusConnection.MethodOutcome? {
        guard call.interface == "org.bluez.Agent1" else { return nil }
        // Only bluetoothd, as it answered RegisterAgent, speaks for the pairings.
        guard let bluezName, call.sender == bluezName else { return .error(Self.rejected("only bluetoothd may call this agent")) }
        let request: BluezAgentRequest
        do {
            request = try BluezAgentRequest(call)
        } catch {
            logger.debug("Agent1 call refused: \(error)")
            return .error(Self.rejected(error.message))
        }
        switch request {
        case .release:
            registered = nil
            return reply(call)
        case .cancel:
            // The prompt bluetoothd waits on is over; its Pair answer follows.
            for (device, pairing) in pairings where pairing.owed != nil {
                pairings[device]?.owed = nil
                later(device, .promptCancelled)
            }
            return reply(call)
        case .refused(let why):
            return .error(Self.rejected(why))
        case .typed(let path):
            return pairing(at: path) == nil ? .error(Self.rejected("not a pairing of accessoryd's")) : reply(call)
        case .prompt(let path, let prompt):
            guard let device = pairing(at: path) else { return .error(Self.rejected("not a pairing of accessoryd's")) }
            guard prompt.needsReply else {
                later(device, .prompted(prompt))
                return reply(call)
            }
            guard pairings[device]?.owed == nil else { return .error(Self.rejected("a prompt for this device is already open")) }
            pairings[device]?.owed = OwedPrompt(call: call, wantsPasskey: prompt == .passkeyEntry)
            later(device, .prompted(prompt))
            return .deferred
        }
    }

    /// The pairing of ours that bluetoothd's path names, while Pair runs.
    private func pairing(at path: String) -> BluetoothDeviceIdentifier? {
        pairings.first { $0.value.path == path && $0.value.stage == .pairing }?.key
    }

    private func reply(_ call: BusMessage) -> BusConnection.MethodOutcome {
        guard let answer = bus.reply(to: call) else { return .error(BusError(name: "org.freedesktop.DBus.Error.NoMemory", message: "")) }
        return .reply(answer)
    }
}
