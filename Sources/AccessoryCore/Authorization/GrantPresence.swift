/// Whether a granted accessory is present, read from the registry, its one
/// owner: present while the registry tracks it and it has not been silent
/// for longer than the registry allows it (three times its learned
/// advertising interval, within the presence bounds), so a sensor that
/// wakes once a minute does not flap between present and absent.
public enum GrantPresence {
    /// What the registry last heard of the grant's device: by its Bluetooth
    /// identity, or the most recently heard BSS of its SSID.
    public static func tracked(_ grant: Grant, in registry: AccessoryRegistry) -> TrackedAccessory? {
        if let device = grant.bluetooth { return registry[.bluetooth(device)] }
        guard let ssid = grant.ssid else { return nil }
        return registry.accessories.filter { $0.network?.ssid == ssid }.max { $0.lastHeard < $1.lastHeard }
    }

    /// When the grant's device counts as gone if nothing more is heard.
    public static func absentAfter(_ grant: Grant, in registry: AccessoryRegistry) -> MonotonicInstant? {
        tracked(grant, in: registry).map { $0.lastHeard.advanced(by: registry.allowedSilence(of: $0)) }
    }

    public static func isPresent(_ grant: Grant, in registry: AccessoryRegistry, at now: MonotonicInstant) -> Bool {
        absentAfter(grant, in: registry).map { now < $0 } ?? false
    }

    /// The smoothed signal strength, nil when absent or heard without one.
    public static func rssi(_ grant: Grant, in registry: AccessoryRegistry, at now: MonotonicInstant) -> Int? {
        isPresent(grant, in: registry, at: now) ? tracked(grant, in: registry)?.rssi : nil
    }
}

/// What each app was last told of its accessories' presence: which are
/// present and the advertisement last passed on, so an app hears of a
/// change once. Not presence itself (the registry holds that).
public struct GrantPresenceReport: Sendable {
    public private(set) var reported: Set<AccessoryID> = []
    private var advertised: [AccessoryID: [UInt8]] = [:]

    public init() {}

    /// Returns whether it was news (not already reported present).
    @discardableResult
    mutating func markReported(_ id: AccessoryID) -> Bool { reported.insert(id).inserted }

    /// Returns whether `data` differs from what the app was last given, and records it.
    mutating func advertisementChanged(_ id: AccessoryID, to data: [UInt8]) -> Bool {
        advertised.updateValue(data, forKey: id) != data
    }

    mutating func forget(_ id: AccessoryID) {
        reported.remove(id)
        advertised.removeValue(forKey: id)
    }
}
