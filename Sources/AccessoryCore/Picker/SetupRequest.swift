/// A setup request: what `showPicker` (or a migration) becomes on a gateway
/// with no screen. It collects candidates, one per unique device, until it
/// is decided (approved, denied), timed out, or its session goes.
/// Pure: the daemon feeds it what the radios heard and the time.
public struct SetupRequest: Sendable {
    public enum Kind: Sendable {
        case picker([PickerDisplayItem])
        case migration([MigrationItem])
    }

    /// What is left when discovery ends, at its deadline or by `finishPickerDiscovery`.
    public enum DiscoveryEnd: Equatable, Sendable {
        /// Nothing to pick from: the request ends with `discoveryTimeout`
        /// (left open, it would wait for a decision nobody can make).
        case nothingFound
        /// Candidates to show: they stay for the decision.
        case candidatesKept
    }

    public let number: UInt32
    public let app: AppID
    public let session: UInt64
    public let kind: Kind
    public let settings: PickerDisplaySettings
    public let opened: MonotonicInstant
    public private(set) var candidates: [SetupCandidate] = []
    public private(set) var discovering: Bool

    public init(number: UInt32, app: AppID, session: UInt64, kind: Kind, settings: PickerDisplaySettings,
                opened: MonotonicInstant) {
        self.number = number
        self.app = app
        self.session = session
        self.kind = kind
        self.settings = settings
        self.opened = opened
        if case .migration(let items) = kind {
            // Known devices need no discovery: each one is a candidate.
            discovering = false
            for (index, item) in items.enumerated() {
                candidates.append(SetupCandidate(
                    number: UInt32(index + 1), item: index, identity: item.identity, advertisedName: item.name,
                    rssi: nil, advertisingData: [], visible: true))
            }
        } else {
            discovering = true
        }
    }

    public var isMigration: Bool { if case .migration = kind { true } else { false } }

    public var pickerItems: [PickerDisplayItem] { if case .picker(let items) = kind { items } else { [] } }

    public var itemNames: [String] {
        switch kind {
        case .picker(let items): items.map(\.name)
        case .migration(let items): items.map(\.name)
        }
    }

    /// Each item's product image path, parallel to `itemNames` ("" for none;
    /// migration items have none).
    public var itemImages: [String] {
        switch kind {
        case .picker(let items): items.map { $0.productImagePath ?? "" }
        case .migration(let items): items.map { _ in "" }
        }
    }

    /// The image a picker shows for `candidate`: the one the app chose for it, else its item's.
    public func image(of candidate: SetupCandidate) -> String {
        if let path = candidate.productImagePath, !path.isEmpty { return path }
        let images = itemImages
        return images.indices.contains(candidate.item) ? images[candidate.item] : ""
    }

    /// Whole seconds until discovery gives up (rounded up), or nil when it
    /// will not (no timeout, or discovery is over and the request waits for a decision).
    public func secondsLeft(at now: MonotonicInstant) -> Int64? {
        guard let deadline = discoveryDeadline else { return nil }
        guard now < deadline else { return 0 }
        let left = deadline.nanoseconds - now.nanoseconds
        return Int64((left + 999_999_999) / 1_000_000_000)
    }

    /// When discovery gives up, if it does.
    public var discoveryDeadline: MonotonicInstant? {
        guard discovering, let timeout = settings.discoveryTimeout.duration else { return nil }
        return opened.advanced(by: timeout)
    }

    /// Candidates the person deciding may pick.
    public var visibleCandidates: [SetupCandidate] { candidates.filter(\.visible) }

    public func candidate(_ number: UInt32) -> SetupCandidate? { candidates.first { $0.number == number } }

    /// A device heard matching item `item`'s descriptor. Returns the new
    /// candidate, or nil when discovery is over or the device is already one.
    public mutating func offer(
        _ identity: DeviceIdentity, item: Int, name: String, rssi: Int?, advertisingData: [UInt8]
    ) -> SetupCandidate? {
        guard discovering, pickerItems.indices.contains(item),
            !candidates.contains(where: { $0.identity == identity })
        else { return nil }
        let candidate = SetupCandidate(
            number: UInt32(candidates.count + 1), item: item, identity: identity, advertisedName: name, rssi: rssi,
            advertisingData: advertisingData, visible: !settings.filterDiscoveryResults)
        candidates.append(candidate)
        return candidate
    }

    /// `updatePicker(showing:)`: the app shows these candidates, under the
    /// names and images it chose.
    public mutating func show(_ number: UInt32, name: String?, productImagePath: String?) throws(AccessorySetupError) {
        guard settings.filterDiscoveryResults else {
            throw AccessorySetupError(.invalidRequest, reason: .message("updatePicker needs the filterDiscoveryResults setting"))
        }
        guard let index = candidates.firstIndex(where: { $0.number == number }) else {
            throw AccessorySetupError(.invalidRequest, reason: .message("no discovered accessory \(number) in this picker"))
        }
        candidates[index].visible = true
        if let name, !name.isEmpty { candidates[index].displayName = name }
        if let productImagePath, !productImagePath.isEmpty { candidates[index].productImagePath = productImagePath }
    }

    /// `finishPickerDiscovery()`, or the discovery deadline passed: no more candidates.
    public mutating func endDiscovery() -> DiscoveryEnd {
        discovering = false
        return visibleCandidates.isEmpty ? .nothingFound : .candidatesKept
    }
}
