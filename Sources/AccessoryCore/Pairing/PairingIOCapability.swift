/// The input and output the gateway's side declares when it starts pairing
/// (mgmt Pair Device's IO Capability; the capability BlueZ's agent is
/// registered with). It bounds the methods the accessory can choose.
public enum PairingIOCapability: String, Hashable, Sendable {
    /// Nothing to show or type with: only Just Works is possible.
    case noInputNoOutput = "NoInputNoOutput"
    /// A display and a keyboard (the person, through the approver): every method.
    case keyboardDisplay = "KeyboardDisplay"
}
