import AccessoryCore
import AccessoryPlatform
import AccessoryRadios
import Logging

extension ManagementPairing {
    /// A back end on its own management socket, read on `loop`: a socket of
    /// its own, so that command answers (which go to the sending socket only)
    /// reach it and no other component's.
    static func attached(
        to loop: EventLoop, store: BondStore, logger: Logger, controllers: @escaping () -> [UInt16]
    ) throws(SystemError) -> ManagementPairing {
        let socket = try ManagementSocket()
        let pairing = ManagementPairing(store: store, scheduler: loop, logger: logger, controllers: controllers) { packet throws(SystemError) in
            try socket.send(packet)
        }
        let token = try loop.watch(fd: socket.fd) { [weak pairing] _ in pairing?.readAvailable() }
        pairing.attachment = (socket, token, loop)
        return pairing
    }

    func detach() {
        guard let attachment else { return }
        attachment.loop.stopWatching(attachment.token)
        self.attachment = nil
    }

    private func readAvailable() {
        guard let socket = attachment?.socket else { return }
        do {
            while let packet = try socket.receive() { handle(packet: packet) }
        } catch {
            detach()
        }
    }
}
