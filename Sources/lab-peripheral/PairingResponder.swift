import AccessoryCodecs
import AccessoryCore
import AccessoryPlatform
import AccessoryRadios

/// `serve --accept-pairing`: the accessory's side of Just Works without
/// bluetoothd. The kernel asks every management socket to confirm a
/// pairing on the accessory's controller too, and with nobody answering it
/// the pairing stalls; an accessory without buttons says yes, so this does,
/// for its own controller only.
struct PairingResponder {
    let socket: ManagementSocket
    let controller: UInt16
    /// With `--bond-file`: where this side's keys are kept.
    var bonds: PeripheralBondFile?

    init(controller: UInt16) throws(SystemError) {
        socket = try ManagementSocket()
        self.controller = controller
    }

    var fd: Int32 { socket.fd }

    func readAvailable() {
        while let packet = try? socket.receive() {
            if bonds?.keep(packet) == true { StandardOutput.write("key kept in \(bonds!.path)\n") }
            guard case .userConfirmationRequest(let index, let device, _, _)? = try? ManagementPairingEvent.decode(packet),
                  index == controller else { continue }
            do {
                try socket.send(ManagementCommand.reply(.confirm, passkeyRequest: false, to: device, controller: controller))
                StandardOutput.write("pairing confirmed for \(device)\n")
            } catch {
                StandardOutput.write("pairing confirmation failed: \(error)\n")
            }
        }
    }
}
