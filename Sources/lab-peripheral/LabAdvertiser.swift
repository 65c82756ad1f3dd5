import AccessoryCore
import AccessoryPlatform
import AccessoryRadios

/// Connectable LE advertising through raw HCI commands on the controller's
/// raw socket (legacy ADV_IND, as btvirt's LE-only controllers know no
/// extended advertising). Chosen over the kernel's mgmt interface because
/// the lab already advertises this way and no bluetoothd runs.
///
/// Advertising data: flags and the complete 128-bit service UUID; scan
/// response: the complete local name (both do not fit in one 31-octet PDU).
/// From a random address (`rotate`), the advertising data also carries the
/// rotation's number as manufacturer data (company 0xFFFF, one octet).
struct LabAdvertiser {
    let socket: HCISocket
    let advertisingData: [UInt8]
    let scanResponse: [UInt8]
    /// Set by `rotate`: the parameters then say "own address random".
    private var randomAddress: BluetoothAddress?
    private var rotation: UInt8 = 0

    init(controller: UInt16, name: String, service: BluetoothUUID) throws {
        socket = try HCISocket(controller: controller)
        // Command Complete and Command Status only.
        try socket.setFilter(packetTypes: [HCISocket.eventPacketType], events: [0x0E, 0x0F])
        let uuid = Array(service.bytes.reversed())  // all 16 octets, least significant first
        advertisingData = [0x02, 0x01, 0x06] + [UInt8(1 + uuid.count), 0x07] + uuid
        let nameBytes = Array(name.utf8.prefix(29))
        scanResponse = [UInt8(1 + nameBytes.count), 0x09] + nameBytes
    }

    /// Sets parameters and data, and turns advertising on.
    func start() throws {
        _ = try command(0x200A, [0x00])  // off first: parameters cannot change while on
        if let randomAddress {
            // LE Set Random Address: what "own address random" advertises from.
            try check(0x2005, (0..<6).map { UInt8(truncatingIfNeeded: randomAddress.rawValue >> UInt64(8 * $0)) })
        }
        // 100 ms, ADV_IND, public or random own address, all three channels, no filter.
        let ownAddressType: UInt8 = randomAddress == nil ? 0x00 : 0x01
        try check(0x2006, [0xA0, 0x00, 0xA0, 0x00, 0x00, ownAddressType, 0x00, 0, 0, 0, 0, 0, 0, 0x07, 0x00])
        try check(0x2008, Self.padded(currentAdvertisingData))
        try check(0x2009, Self.padded(scanResponse))
        try check(0x200A, [0x01])
    }

    private var currentAdvertisingData: [UInt8] {
        randomAddress == nil ? advertisingData : advertisingData + [0x04, 0xFF, 0xFF, 0xFF, rotation]
    }

    /// Advertises from `address` with rotation number `number` from now on:
    /// off, the new address and data, and on again when `advertising`.
    mutating func rotate(to address: BluetoothAddress, number: UInt8, advertising: Bool) throws {
        randomAddress = address
        rotation = number
        try start()
        if !advertising { try setAdvertising(false) }
    }

    /// Turns advertising on again after a connection ended it; a controller
    /// that refuses (still connected, already on) is left as it is.
    func resume() { _ = try? command(0x200A, [0x01]) }

    /// Turns advertising on or off, once the controller has answered;
    /// Command Disallowed (0x0C) means it already was.
    func setAdvertising(_ on: Bool) throws {
        let status = try command(0x200A, [on ? 0x01 : 0x00])
        guard status == 0 || status == 0x0C else {
            throw LabError("LE Set Advertising Enable \(on ? 1 : 0) failed with status 0x\(hexByte(status))")
        }
    }

    private static func padded(_ data: [UInt8]) -> [UInt8] {
        [UInt8(data.count)] + data + [UInt8](repeating: 0, count: 31 - data.count)
    }

    private func check(_ opcode: UInt16, _ parameters: [UInt8]) throws {
        let status = try command(opcode, parameters)
        guard status == 0 else { throw LabError("HCI command 0x\(String(opcode, radix: 16)) failed with status 0x\(hexByte(status))") }
    }

    /// Sends a command and waits for its Command Complete (or Status): the status octet.
    private func command(_ opcode: UInt16, _ parameters: [UInt8]) throws -> UInt8 {
        try socket.send([0x01, UInt8(opcode & 0xFF), UInt8(opcode >> 8), UInt8(parameters.count)] + parameters)
        while socket.waitReadable(timeout: .seconds(5)) {
            guard let packet = try socket.receive() else { continue }
            // H4 event: 0x04, code, length, parameters.
            if packet.count >= 7, packet[1] == 0x0E, UInt16(packet[4]) | UInt16(packet[5]) << 8 == opcode {
                return packet[6]
            }
            if packet.count >= 7, packet[1] == 0x0F, UInt16(packet[5]) | UInt16(packet[6]) << 8 == opcode {
                return packet[3]
            }
        }
        throw LabError("no answer to HCI command 0x\(String(opcode, radix: 16))")
    }
}

struct LabError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
