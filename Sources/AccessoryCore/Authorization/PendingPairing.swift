/// An approval that waits for its pairing: the accessory was chosen and
/// its id reserved, but nothing is granted until the pairing completes
/// (`AuthorizationCore.completePairing`), and nothing ever if it fails.
public struct PendingPairing: Hashable, Sendable {
    public var request: UInt32
    /// The session that showed the picker: it hears PickerSetupPairing and the end.
    public var session: UInt64
    public var app: AppID
    public var candidate: UInt32
    /// The grant's name, the approver's rename if any.
    public var name: String
    public var renamed: Bool
    /// As the journal records it (`DECIDED_BY=`).
    public var decidedBy: String
    /// Who approved, and so who answers the pairing's prompts.
    public var approver: PairingApprover
    /// The grant's id once granted; PickerSetupPairing names it already.
    public var accessory: AccessoryID
    public var device: BluetoothDeviceIdentifier

    public init(request: UInt32, session: UInt64, app: AppID, candidate: UInt32, name: String, renamed: Bool,
                decidedBy: String, approver: PairingApprover, accessory: AccessoryID, device: BluetoothDeviceIdentifier) {
        self.request = request
        self.session = session
        self.app = app
        self.candidate = candidate
        self.name = name
        self.renamed = renamed
        self.decidedBy = decidedBy
        self.approver = approver
        self.accessory = accessory
        self.device = device
    }
}
