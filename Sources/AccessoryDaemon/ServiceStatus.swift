import AccessoryDecisions
import AccessoryRadios

/// What `systemctl status` shows (STATUS=), as a value: the radios the
/// configuration lets accessoryd use that are there now, and what each does.
/// The text is a pure function of it; the daemon notifies systemd only when
/// the text changes.
public struct ServiceStatus: Equatable, Sendable {
    public enum ControllerState: Equatable, Sendable {
        /// Present but down (nobody powered it, or PowerControllers=never).
        case down
        /// Up, but without Low Energy: nothing for accessoryd.
        case noLowEnergy
        /// Up and not (yet) opened.
        case idle
        case active(ScanStateMachine.Activity)
    }

    public struct Controller: Equatable, Sendable {
        public var name: String
        public var state: ControllerState

        public init(name: String, state: ControllerState) {
            self.name = name
            self.state = state
        }
    }

    /// nil when [Bluetooth] Enabled=no.
    public var bluetooth: [Controller]?
    /// nil when [Wi-Fi] Enabled=no.
    public var wifi: [String]?
    /// `--replay FILE --serve`: no radio, the capture instead.
    public var capture: String?

    public init(bluetooth: [Controller]?, wifi: [String]?, capture: String? = nil) {
        self.bluetooth = bluetooth
        self.wifi = wifi
        self.capture = capture
    }

    public var text: String {
        if let capture { return "Bluetooth from the capture \(capture)" }
        if (bluetooth ?? []).isEmpty && (wifi ?? []).isEmpty {
            return bluetooth == nil && wifi == nil ? "Bluetooth and Wi-Fi off in the configuration" : "No radios found; waiting"
        }
        let bluetoothText = bluetooth.map { controllers in
            controllers.isEmpty ? "none" : controllers.map { "\($0.name) \(Self.describe($0.state))" }.joined(separator: ", ")
        } ?? "off"
        let wifiText = wifi.map { $0.isEmpty ? "none" : $0.joined(separator: ", ") } ?? "off"
        return "Bluetooth: \(bluetoothText); Wi-Fi: \(wifiText)"
    }

    static func describe(_ state: ControllerState) -> String {
        switch state {
        case .down: "down"
        case .noLowEnergy: "without LE, not used"
        case .idle: "up"
        case .active(let activity): activity.rawValue
        }
    }
}

extension ServiceStatus {
    /// The status of what is there now: the controllers the kernel lists that
    /// Controllers= (or ExclusiveControllers=) lets accessoryd use, each with
    /// the activity of its scan where accessoryd has it open; the Wi-Fi
    /// interfaces being scanned.
    public init(
        controllers: [BluetoothControllerInfo]?, activities: [UInt16: ScanStateMachine.Activity],
        settings: BluetoothSettings, wifi: [String]?
    ) {
        let used = controllers?.filter { settings.uses(controller: $0.index) }
        self.init(bluetooth: used?.map { info in
            let state: ControllerState = activities[info.index].map { .active($0) }
                ?? (!info.isUp ? .down : info.supportsLowEnergy ? .idle : .noLowEnergy)
            return Controller(name: info.name, state: state)
        }, wifi: wifi)
    }
}
