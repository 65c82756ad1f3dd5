/// The administrator's word on pairing during setup (`[Bluetooth] Pairing=`
/// in accessoryd.conf): which association models a setup may use.
public enum PairingPolicy: String, Hashable, Sendable, CaseIterable {
    /// Just Works, numeric comparison and passkey entry, whichever the accessory and the back end agree on.
    case any
    /// Just Works only: a pairing that asks to compare a number or to show
    /// or enter a passkey is refused (`refusedByPolicy`).
    case justWorksOnly = "just-works-only"
    /// No pairing at all: setup of an accessory that needs it fails with `refusedByPolicy`.
    case refuse

    /// What the configuration file says: the raw value, case-insensitively.
    public init?(configurationValue text: String) {
        self.init(rawValue: text.lowercased())
    }

    /// Whether a pairing that shows this prompt may go on.
    public func allows(_ prompt: PairingPrompt) -> Bool {
        switch self {
        case .any: true
        case .justWorksOnly: prompt.method == .justWorks
        case .refuse: false
        }
    }
}
