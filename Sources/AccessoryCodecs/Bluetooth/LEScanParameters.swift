/// Passive scanning only listens; active scanning also sends scan requests,
/// which is how a scan response (often carrying the name) is heard.
public enum LEScanType: UInt8, Hashable, Sendable {
    case passive = 0x00
    case active = 0x01
}

/// Which address the scanner uses in its own scan requests.
public enum LEOwnAddressType: UInt8, Hashable, Sendable {
    case `public` = 0x00
    case random = 0x01
    case resolvableOrPublic = 0x02
    case resolvableOrRandom = 0x03
}

/// Which advertisements the controller reports (Core Spec Vol 6 Part B §4.3.3).
public enum LEScanFilterPolicy: UInt8, Hashable, Sendable {
    case acceptAll = 0x00
    case acceptListOnly = 0x01
    case acceptAllAndUnresolvedDirected = 0x02
    case acceptListAndUnresolvedDirected = 0x03
}

/// Parameters of LE Set Scan Parameters (0x200B).
/// Interval and window count 0.625 ms slots; the controller rejects values
/// outside 0x0004...0x4000 or a window longer than the interval.
public struct LEScanParameters: Hashable, Sendable {
    public var scanType: LEScanType
    public var interval: UInt16
    public var window: UInt16
    public var ownAddressType: LEOwnAddressType
    public var filterPolicy: LEScanFilterPolicy

    public init(
        scanType: LEScanType,
        interval: UInt16,
        window: UInt16,
        ownAddressType: LEOwnAddressType = .public,
        filterPolicy: LEScanFilterPolicy = .acceptAll
    ) {
        self.scanType = scanType
        self.interval = interval
        self.window = window
        self.ownAddressType = ownAddressType
        self.filterPolicy = filterPolicy
    }
}

/// The per-PHY part of LE Set Extended Scan Parameters (0x2041).
public struct LEScanPHYParameters: Hashable, Sendable {
    public var scanType: LEScanType
    public var interval: UInt16
    public var window: UInt16

    public init(scanType: LEScanType, interval: UInt16, window: UInt16) {
        self.scanType = scanType
        self.interval = interval
        self.window = window
    }
}

/// Parameters of LE Set Extended Scan Parameters (0x2041): one entry per
/// primary PHY scanned. At least one PHY must be given for the controller to accept it.
public struct LEExtendedScanParameters: Hashable, Sendable {
    public var ownAddressType: LEOwnAddressType
    public var filterPolicy: LEScanFilterPolicy
    public var le1M: LEScanPHYParameters?
    public var leCoded: LEScanPHYParameters?

    public init(
        ownAddressType: LEOwnAddressType = .public,
        filterPolicy: LEScanFilterPolicy = .acceptAll,
        le1M: LEScanPHYParameters?,
        leCoded: LEScanPHYParameters? = nil
    ) {
        self.ownAddressType = ownAddressType
        self.filterPolicy = filterPolicy
        self.le1M = le1M
        self.leCoded = leCoded
    }
}

/// Filter_Duplicates of LE Set Extended Scan Enable (0x2042).
public enum LEDuplicateFilter: UInt8, Hashable, Sendable {
    case disabled = 0x00
    case enabled = 0x01
    /// Filtering restarts at each scan period.
    case enabledResetEachPeriod = 0x02
}
