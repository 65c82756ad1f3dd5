import AccessoryCore
import AccessoryPlatform

/// A pairing question as both ends of the bus spell it: PickerAgent1's
/// `PairingQuestion` arguments and an `Admin1.ListPairingQuestions` row,
/// `(uussssi)`: request, prompt number, kind, the six digits to show or
/// compare ("" for none), accessory name, approver, seconds left to answer (-1: no deadline).
public struct WirePairingQuestion: WireRecord, Hashable, Sendable {
    public static let type = BusType.structure(.uint32, .uint32, .string, .string, .string, .string, .int32)

    /// Consent without a number: answer `yes` or `no`.
    public static let justWorks = "just-works"
    /// Both sides show `number`: answer `yes` if they match.
    public static let numericComparison = "numeric-comparison"
    /// Type `number` on the accessory; `yes` says it was seen (the accessory's typing decides).
    public static let passkeyDisplay = "passkey-display"
    /// Type the six digits the accessory shows as the answer.
    public static let passkeyEntry = "passkey-entry"
    public static let noDeadline: Int32 = -1

    public var request: UInt32
    public var prompt: UInt32
    public var kind: String
    public var number: String
    public var accessoryName: String
    public var approver: String
    public var secondsLeft: Int32

    public init(request: UInt32, prompt: UInt32, kind: String, number: String, accessoryName: String, approver: String,
                secondsLeft: Int32 = WirePairingQuestion.noDeadline) {
        self.request = request
        self.prompt = prompt
        self.kind = kind
        self.number = number
        self.accessoryName = accessoryName
        self.approver = approver
        self.secondsLeft = secondsLeft
    }

    /// The kind word and the digits of `prompt` (never in the journal: these are for the approver).
    public static func kindAndNumber(of prompt: PairingPrompt) -> (kind: String, number: String) {
        switch prompt {
        case .justWorks: (justWorks, "")
        case .numericComparison(let number): (numericComparison, number.digits)
        case .passkeyDisplay(let passkey): (passkeyDisplay, passkey.digits)
        case .passkeyEntry: (passkeyEntry, "")
        }
    }

    public init(from reader: some ArgumentReader) throws(BusError) {
        request = try reader.uint32()
        prompt = try reader.uint32()
        kind = try reader.string("a pairing prompt's kind")
        number = try reader.string("a pairing prompt's number")
        accessoryName = try reader.string("an accessory name")
        approver = try reader.string("an approver")
        secondsLeft = try reader.int32()
    }

    public func appendFields(to message: BusReply) {
        message.append(request).append(prompt).append(kind).append(number).append(accessoryName).append(approver).append(secondsLeft)
    }
}
