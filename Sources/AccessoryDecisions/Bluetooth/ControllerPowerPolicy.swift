/// Who powers the controllers, as decisions only. The kernel powers a new
/// controller at registration and off again about 2 s later unless a
/// management client keeps it up; bluetoothd does that when it runs. When it
/// does not, accessoryd does, for the controllers it uses. Inputs are what
/// the kernel's management interface and the system bus say; outputs are
/// actions for `ControllerPower` to carry out. No socket and no clock.
///
/// Never a fight: accessoryd never powers a controller off, and does nothing
/// while bluetoothd owns its bus name (`org.bluez`) or while that is not
/// known yet. bluetoothd takes its bus name before it touches a controller
/// and releases it after powering them off on exit, so its own power changes
/// are always seen while it is present.
public struct ControllerPowerPolicy {
    /// [Bluetooth] PowerControllers=.
    public enum Setting: String, CaseIterable, Hashable, Sendable {
        /// Power the controllers accessoryd uses when no other process manages them.
        case auto
        /// Never change a controller's power (only use those already up).
        case never
    }

    public enum Manager: Hashable, Sendable {
        /// Not known yet (the bus has not answered): wait.
        case unknown
        /// bluetoothd owns `org.bluez`: power is its business.
        case bluetoothd
        /// Nobody else manages the controllers.
        case nobody
    }

    public enum Action: Hashable, Sendable {
        /// Send Set Powered (on) for this controller.
        case powerOn(UInt16)
        /// accessoryd powers this controller from now on: said once per controller.
        case announcePowering(UInt16)
        /// bluetoothd appeared after accessoryd had powered controllers: power is left to it.
        case leaveToBluetoothd([UInt16])
        /// Set Powered failed; `firstTime` once per controller until it succeeds.
        case powerFailed(UInt16, status: UInt8, firstTime: Bool)
    }

    /// Invalid Index: the kernel answers so for a controller still in its setup.
    public static let notReady: UInt8 = 0x11

    public let setting: Setting
    /// Whether accessoryd uses a controller (Controllers=, and not held exclusively).
    private let uses: (UInt16) -> Bool
    public private(set) var manager: Manager = .unknown
    /// The controllers the kernel has.
    private var controllers: Set<UInt16> = []
    /// Powered as the management interface last said; absent when not known.
    private var powered: [UInt16: Bool] = [:]
    /// A Set Powered is on its way for these.
    private var inFlight: Set<UInt16> = []
    /// Failed: not tried again until something new is heard of the controller.
    private var heldOff: Set<UInt16> = []
    private var announced: Set<UInt16> = []
    private var failedBefore: Set<UInt16> = []
    /// Powered by accessoryd since bluetoothd was last seen.
    public private(set) var poweredByUs: Set<UInt16> = []

    public init(setting: Setting, uses: @escaping (UInt16) -> Bool) {
        self.setting = setting
        self.uses = uses
    }

    // MARK: Inputs

    /// A controller is there (at start, or the kernel added it); its power is not known.
    public mutating func controllerAppeared(_ index: UInt16) -> [Action] {
        controllers.insert(index)
        powered[index] = nil
        heldOff.remove(index)
        return decide()
    }

    public mutating func controllerRemoved(_ index: UInt16) -> [Action] {
        controllers.remove(index)
        powered[index] = nil
        inFlight.remove(index)
        heldOff.remove(index)
        poweredByUs.remove(index)
        return []
    }

    /// The controller went up or down (HCI device event): up may still be
    /// the kernel's short power-on at registration, so only down is a fact.
    public mutating func controllerWent(up: Bool, _ index: UInt16) -> [Action] {
        controllers.insert(index)
        powered[index] = up ? nil : false
        heldOff.remove(index)
        return decide()
    }

    /// The management interface's settings for a controller (New Settings, or a command's answer).
    public mutating func settings(_ index: UInt16, powered isPowered: Bool) -> [Action] {
        guard controllers.contains(index) else { return [] }
        powered[index] = isPowered
        if isPowered { heldOff.remove(index) }
        return decide()
    }

    /// The answer to our Set Powered.
    public mutating func powerAnswered(_ index: UInt16, status: UInt8, powered isPowered: Bool?) -> [Action] {
        inFlight.remove(index)
        if status == Self.notReady {
            // Still in its setup (the kernel's power-on at registration): Index Added follows.
            heldOff.insert(index)
            return []
        }
        guard status == 0 else {
            heldOff.insert(index)
            let first = failedBefore.insert(index).inserted
            return [.powerFailed(index, status: status, firstTime: first)]
        }
        failedBefore.remove(index)
        powered[index] = isPowered ?? true
        var actions: [Action] = []
        if powered[index] == true, manager == .nobody {
            poweredByUs.insert(index)
            if announced.insert(index).inserted { actions.append(.announcePowering(index)) }
        }
        return actions + decide()
    }

    public mutating func managerChanged(_ manager: Manager) -> [Action] {
        guard manager != self.manager else { return [] }
        self.manager = manager
        heldOff.removeAll()
        if manager == .bluetoothd, !poweredByUs.isEmpty {
            let handed = poweredByUs.sorted()
            poweredByUs.removeAll()
            return [.leaveToBluetoothd(handed)]
        }
        return decide()
    }

    // MARK: Deciding

    /// The controllers to power now.
    private mutating func decide() -> [Action] {
        guard setting == .auto, manager == .nobody else { return [] }
        var actions: [Action] = []
        for index in controllers.sorted()
        where powered[index] != true && uses(index) && !inFlight.contains(index) && !heldOff.contains(index) {
            inFlight.insert(index)
            actions.append(.powerOn(index))
        }
        return actions
    }
}
