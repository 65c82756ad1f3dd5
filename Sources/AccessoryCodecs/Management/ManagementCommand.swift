import AccessoryCore

/// The management commands accessoryd pairs with when bluetoothd does not
/// run (BlueZ's doc/mgmt-api.txt): each a 6-octet header (opcode,
/// controller index, parameter length, little-endian) and its parameters.
/// Keys go out least significant octet first, as the kernel keeps them.
public enum ManagementCommand {
    public static let setBondable: UInt16 = 0x0009
    public static let loadLongTermKeys: UInt16 = 0x0013
    public static let pairDevice: UInt16 = 0x0019
    public static let cancelPairDevice: UInt16 = 0x001A
    public static let unpairDevice: UInt16 = 0x001B
    public static let userConfirmationReply: UInt16 = 0x001C
    public static let userConfirmationNegativeReply: UInt16 = 0x001D
    public static let userPasskeyReply: UInt16 = 0x001E
    public static let userPasskeyNegativeReply: UInt16 = 0x001F
    public static let setSecureConnections: UInt16 = 0x002D
    public static let loadIdentityResolvingKeys: UInt16 = 0x0030

    /// Pair Device's IO Capability octet.
    public static func ioCapability(_ capability: PairingIOCapability) -> UInt8 {
        switch capability {
        case .noInputNoOutput: 0x03
        case .keyboardDisplay: 0x04
        }
    }

    /// Set Bondable: without it the kernel's Security Manager asks for no
    /// bonding and distributes no keys, so a pairing would leave nothing to
    /// keep. bluetoothd sets it at start; without bluetoothd nobody does.
    public static func bondable(_ on: Bool, controller: UInt16) -> [UInt8] {
        packet(setBondable, controller, [on ? 1 : 0])
    }

    /// Set Secure Connections (enabled, not SC-only): LE Secure Connections
    /// where the accessory supports it, legacy pairing otherwise, as bluetoothd's default.
    public static func secureConnections(controller: UInt16) -> [UInt8] {
        packet(setSecureConnections, controller, [0x01])
    }

    public static func pair(_ device: BluetoothDeviceIdentifier, capability: PairingIOCapability, controller: UInt16) -> [UInt8] {
        packet(pairDevice, controller, ManagementAddress.encode(device) + [ioCapability(capability)])
    }

    public static func cancelPair(_ device: BluetoothDeviceIdentifier, controller: UInt16) -> [UInt8] {
        packet(cancelPairDevice, controller, ManagementAddress.encode(device))
    }

    /// Forgets the device's keys; `disconnect` drops its link too.
    public static func unpair(_ device: BluetoothDeviceIdentifier, disconnect: Bool, controller: UInt16) -> [UInt8] {
        packet(unpairDevice, controller, ManagementAddress.encode(device) + [disconnect ? 1 : 0])
    }

    /// The answer to a User Confirmation Request or User Passkey Request.
    /// A passkey reply to a confirmation, or a confirm to a passkey request, is the negative reply of that request.
    public static func reply(_ reply: PairingReply, passkeyRequest: Bool, to device: BluetoothDeviceIdentifier, controller: UInt16) -> [UInt8] {
        let address = ManagementAddress.encode(device)
        switch (reply, passkeyRequest) {
        case (.confirm, false): return packet(userConfirmationReply, controller, address)
        case (.passkey(let passkey), true):
            let value = passkey.value
            return packet(userPasskeyReply, controller, address + (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) })
        case (_, false): return packet(userConfirmationNegativeReply, controller, address)
        case (_, true): return packet(userPasskeyNegativeReply, controller, address)
        }
    }

    /// Load Long Term Keys: replaces the controller's whole list (so only
    /// when no bluetoothd keeps one). Each bond's key for this side as central.
    public static func loadLongTermKeys(_ bonds: [Bond], controller: UInt16) -> [UInt8] {
        let keys = bonds.compactMap { bond in bond.ltk.map { (bond.identity, $0) } }
        var parameters = littleEndian(UInt16(keys.count))
        for (identity, ltk) in keys {
            let type: UInt8 = switch (ltk.secureConnections, ltk.authenticated) {
            case (false, false): 0x00
            case (false, true): 0x01
            case (true, false): 0x02
            case (true, true): 0x03
            }
            parameters += ManagementAddress.encode(identity) + [type, ltk.secureConnections ? 0 : 1, ltk.keySize]
            parameters += littleEndian(ltk.ediv)
            parameters += (0..<8).map { UInt8(truncatingIfNeeded: ltk.rand >> (8 * UInt64($0))) }
            parameters += ltk.key.value.octets.reversed()
        }
        return packet(loadLongTermKeys, controller, parameters)
    }

    /// Load IRKs: replaces the controller's whole list; lets the kernel
    /// resolve the bonded accessories' private addresses when it connects.
    public static func loadIdentityResolvingKeys(_ bonds: [Bond], controller: UInt16) -> [UInt8] {
        let keys = bonds.compactMap { bond in bond.irk.map { (bond.identity, $0) } }
        var parameters = littleEndian(UInt16(keys.count))
        for (identity, irk) in keys { parameters += ManagementAddress.encode(identity) + irk.value.octets.reversed() }
        return packet(loadIdentityResolvingKeys, controller, parameters)
    }

    static func packet(_ opcode: UInt16, _ controller: UInt16, _ parameters: [UInt8]) -> [UInt8] {
        littleEndian(opcode) + littleEndian(controller) + littleEndian(UInt16(parameters.count)) + parameters
    }

    private static func littleEndian(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
}
