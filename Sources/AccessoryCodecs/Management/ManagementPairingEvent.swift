import AccessoryCore

/// The management events a pairing without bluetoothd follows (BlueZ's
/// doc/mgmt-api.txt). Every management socket receives them, for every
/// controller and every pairing: the adapter keeps those of its own.
/// Keys arrive least significant octet first and are turned around here.
public enum ManagementPairingEvent: Hashable, Sendable {
    /// Command Complete or Command Status of any command; for Pair Device
    /// the device is echoed (absent from a bare Command Status).
    case commandAnswered(opcode: UInt16, controller: UInt16, status: UInt8, device: BluetoothDeviceIdentifier?)
    /// User Confirmation Request: `justWorks` when the kernel's Confirm Hint
    /// says only consent is asked (no number to compare).
    case userConfirmationRequest(controller: UInt16, device: BluetoothDeviceIdentifier, justWorks: Bool, value: UInt32)
    case userPasskeyRequest(controller: UInt16, device: BluetoothDeviceIdentifier)
    /// Passkey Notify: the passkey to type into the accessory; `entered` counts the keys typed so far.
    case passkeyNotify(controller: UInt16, device: BluetoothDeviceIdentifier, passkey: UInt32, entered: UInt8)
    case newLongTermKey(controller: UInt16, ManagementLongTermKey)
    /// New IRK: the accessory's identity address and its IRK; `randomAddress` the private address it used.
    case newIdentityResolvingKey(controller: UInt16, randomAddress: HardwareAddress, identity: BluetoothDeviceIdentifier, key: SecurityKey)
    /// New CSRK; `remote` when it is the accessory's signing key (not this side's).
    case newSignatureResolvingKey(controller: UInt16, device: BluetoothDeviceIdentifier, remote: Bool, authenticated: Bool, key: SecurityKey)
    case deviceDisconnected(controller: UInt16, device: BluetoothDeviceIdentifier, reason: UInt8)
    case authenticationFailed(controller: UInt16, device: BluetoothDeviceIdentifier, status: UInt8)

    /// One packet. Nil for events about other things, or about BR/EDR
    /// devices; an event of one of these codes whose size is wrong is an error.
    public static func decode(_ packet: [UInt8]) throws(ManagementDecodingError) -> ManagementPairingEvent? {
        guard packet.count >= 6 else { throw .truncatedHeader(length: packet.count) }
        let code = UInt16(packet[0]) | UInt16(packet[1]) << 8
        let controller = UInt16(packet[2]) | UInt16(packet[3]) << 8
        let declared = Int(UInt16(packet[4]) | UInt16(packet[5]) << 8)
        guard packet.count - 6 == declared else { throw .parameterLengthMismatch(declared: declared, actual: packet.count - 6) }
        let p = packet[6...]
        let s = p.startIndex
        func expect(_ length: Int) throws(ManagementDecodingError) {
            guard p.count == length else { throw .wrongParameterLength(event: code, expected: length, actual: p.count) }
        }
        func device(at offset: Int) throws(ManagementDecodingError) -> BluetoothDeviceIdentifier? {
            try ManagementAddress.decode(p[(s + offset)..<(s + offset + ManagementAddress.length)], event: code)
        }
        func uint32(at offset: Int) -> UInt32 {
            (0..<4).reduce(UInt32(0)) { $0 | UInt32(p[s + offset + $1]) << (8 * UInt32($1)) }
        }
        func key(at offset: Int) -> SecurityKey {
            SecurityKey(AES128Block(littleEndianOctets: p[(s + offset)..<(s + offset + 16)])!)
        }

        switch code {
        case 0x0001, 0x0002:
            guard p.count >= 3 else { throw .wrongParameterLength(event: code, expected: 3, actual: p.count) }
            let opcode = UInt16(p[s]) | UInt16(p[s + 1]) << 8
            let status = p[s + 2]
            // Pair Device's answer echoes the address; a Command Status carries none.
            let echoed = opcode == ManagementCommand.pairDevice && p.count == 3 + ManagementAddress.length ? try device(at: 3) : nil
            return .commandAnswered(opcode: opcode, controller: controller, status: status, device: echoed)
        case 0x000A:
            try expect(37)
            guard let device = try device(at: 1) else { return nil }
            // Store Hint, address, Key Type, Central, Encryption Size, EDIV, Rand, Value.
            let ediv = UInt16(p[s + 11]) | UInt16(p[s + 12]) << 8
            let rand = (0..<8).reduce(UInt64(0)) { $0 | UInt64(p[s + 13 + $1]) << (8 * UInt64($1)) }
            return .newLongTermKey(controller: controller, ManagementLongTermKey(
                device: device, keyType: p[s + 8], central: p[s + 9] != 0, encryptionSize: p[s + 10],
                ediv: ediv, rand: rand, key: key(at: 21), storeHint: p[s] != 0))
        case 0x000C:
            try expect(8)
            guard let device = try device(at: 0) else { return nil }
            return .deviceDisconnected(controller: controller, device: device, reason: p[s + 7])
        case 0x000F:
            try expect(12)
            guard let device = try device(at: 0) else { return nil }
            return .userConfirmationRequest(controller: controller, device: device, justWorks: p[s + 7] != 0, value: uint32(at: 8))
        case 0x0010:
            try expect(7)
            guard let device = try device(at: 0) else { return nil }
            return .userPasskeyRequest(controller: controller, device: device)
        case 0x0011:
            try expect(8)
            guard let device = try device(at: 0) else { return nil }
            return .authenticationFailed(controller: controller, device: device, status: p[s + 7])
        case 0x0017:
            try expect(12)
            guard let device = try device(at: 0) else { return nil }
            return .passkeyNotify(controller: controller, device: device, passkey: uint32(at: 7), entered: p[s + 11])
        case 0x0018:
            try expect(30)
            guard let identity = try device(at: 7) else { return nil }
            return .newIdentityResolvingKey(controller: controller, randomAddress: HardwareAddress(littleEndianOctets: p[(s + 1)..<(s + 7)])!,
                                            identity: identity, key: key(at: 14))
        case 0x0019:
            try expect(25)
            guard let device = try device(at: 1) else { return nil }
            let type = p[s + 8]
            return .newSignatureResolvingKey(controller: controller, device: device, remote: type & 1 == 1, authenticated: type >= 2,
                                             key: key(at: 9))
        default:
            return nil
        }
    }
}
