import AccessoryCodecs
import AccessoryCore
import AccessoryPlatform
import AccessoryRadios

/// `serve --accept-pairing`: the accessory's side of Just Works without
/// bluetoothd. The kernel asks every management socket to confirm a
/// pairing on the accessory's controller too, and with nobody answering it
/// the pairing stalls; an accessory without buttons says yes, so this does,
/// for its own controller only. A passkey the kernel makes up for it to
/// show (the controller's IO capability set to DisplayOnly) is printed, as
/// the accessory's display would show it: the lab types it elsewhere.
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
            let event = try? ManagementPairingEvent.decode(packet)
            if case .passkeyNotify(let index, let device, let passkey, 0)? = event, index == controller,
               let shown = PairingPasskey(passkey) {
                StandardOutput.write("passkey \(shown.digits) for \(device)\n")
                continue
            }
            guard case .userConfirmationRequest(let index, let device, _, _)? = event, index == controller else { continue }
            do {
                try socket.send(ManagementCommand.reply(.confirm, passkeyRequest: false, to: device, controller: controller))
                StandardOutput.write("pairing confirmed for \(device)\n")
            } catch {
                StandardOutput.write("pairing confirmation failed: \(error)\n")
            }
        }
    }
}
