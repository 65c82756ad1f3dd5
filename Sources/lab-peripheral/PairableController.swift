import AccessoryCore
import AccessoryPlatform
import AccessoryRadios

/// `serve --accept-pairing`: the accessory's controller made ready to pair
/// as the responder, through the management interface as bluetoothd would:
/// powered off, Bondable (else the kernel asks for no bonding and keeps
/// no key) and Secure Connections on, powered on again. Powered this way, the kernel registers its
/// Security Manager for the controller; one only brought up with HCIDEVUP
/// (`hciconfig up`) answers every request for security with "not available".
/// With `--bond-file`, the keys kept there are loaded last.
enum PairableController {
    static let setBondable: UInt16 = 0x0009
    static let setSecureConnections: UInt16 = 0x002D
    static let setPrivacy: UInt16 = 0x002F

    /// `bondable` false (`--not-bondable`): the kernel then answers a pairing
    /// that asks for bonding with Pairing Not Supported, as an accessory refusing.
    static func prepare(_ controller: UInt16, bonds: PeripheralBondFile?, privacy irk: SecurityKey?, bondable: Bool) throws {
        let socket = try ManagementSocket()
        try command(socket, ManagementPacket.setPowered(controller: controller, on: false))
        if let irk {
            // Set Privacy (only while powered off): the kernel then distributes the IRK and the
            // identity address in pairing, as an accessory that uses private addresses does.
            // Its addresses stay lab-peripheral's own (AddressRotation), made from the same IRK.
            try command(socket, ManagementPacket.command(setPrivacy, controller: controller,
                                                         parameters: [0x01] + irk.value.octets.reversed()))
        }
        try command(socket, ManagementPacket.command(setBondable, controller: controller, parameters: [bondable ? 1 : 0]))
        // LE Secure Connections, as most accessories made today offer it.
        try command(socket, ManagementPacket.command(setSecureConnections, controller: controller, parameters: [1]))
        try command(socket, ManagementPacket.setPowered(controller: controller, on: true))
        if let bonds {
            try command(socket, bonds.loadCommand())
            StandardOutput.write("loaded \(bonds.entries().count) key(s) from \(bonds.path)\n")
        }
    }

    /// Sends one command and waits for its answer (Command Complete or
    /// Status for its opcode and controller); a failed status is an error.
    private static func command(_ socket: ManagementSocket, _ packet: [UInt8]) throws {
        try socket.send(packet)
        let opcode = Array(packet[0..<2]), index = Array(packet[2..<4])
        for _ in 0..<50 {
            _ = try Readiness.wait(for: .readable, on: [socket.fd], timeoutMilliseconds: 200)
            while let answer = try socket.receive() {
                // Command Complete (0x0001) and Command Status (0x0002): opcode, then status.
                guard answer.count >= 9, answer[0] == 0x01 || answer[0] == 0x02, answer[1] == 0,
                      Array(answer[2..<4]) == index, Array(answer[6..<8]) == opcode else { continue }
                guard answer[8] == 0 else {
                    throw SystemError(operation: "management command 0x\(hexByte(packet[1]))\(hexByte(packet[0])): status 0x\(hexByte(answer[8]))", errno: 5)
                }
                return
            }
        }
        throw SystemError(operation: "management command 0x\(hexByte(packet[1]))\(hexByte(packet[0])): no answer in 10 s", errno: 110)
    }
}
