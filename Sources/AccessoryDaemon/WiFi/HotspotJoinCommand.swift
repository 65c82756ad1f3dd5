import AccessoryCodecs
import AccessoryCore
import AccessoryPlatform
import Glibc  // signal numbers only
import Logging

/// `accessoryd --join-hotspot SSID --interface IF`: a diagnostic join, for the
/// lab and for administrators, before apps can ask through D-Bus. Reads the
/// passphrase from the first line of stdin (an empty line: an open network;
/// 64 hex digits: a raw PSK), prints the typed result, stays joined until
/// SIGTERM, SIGINT, the end of stdin or the loss of the link (`link lost: …`),
/// then leaves and restores the previous network.
public enum HotspotJoinCommand {
    public static let exitUsage: Int32 = 64

    /// Prints `result joined interface=IF address=A.B.C.D` (or another result) and,
    /// after leaving, `left interface=IF`. Exit status 0 when the join succeeded.
    public static func run(ssid: SSID, interface: String, settings: HotspotJoinSettings, logger: Logger) -> Int32 {
        let credential: WPACredential
        do {
            guard let line = try SecretInput.readLine() else {
                StandardError.write("accessoryd: no passphrase on stdin (an empty line joins an open network)\n")
                return exitUsage
            }
            credential = line.isEmpty ? .open : .wpa2(try WPAPassphrase(bytes: line))
        } catch {
            StandardError.write("accessoryd: passphrase refused: \(error)\n")
            return exitUsage
        }

        do {
            let loop = try EventLoop()
            let joiner = HotspotJoiner(loop: loop, settings: settings, logger: logger)
            joiner.recoverAfterCrash()
            var status: Int32 = 1
            var finished = false
            let finish = { (code: Int32) in
                guard !finished else { return }
                finished = true
                joiner.leaveAll()
                StandardOutput.write("left interface=\(interface)\n")
                loop.exit(code: code)
            }
            // A join that ended by itself is undone on the loop: exit once the
            // interface is given back, so the undo is never cut short.
            var exitWhenReleased: Int32?
            let finishOnceReleased = { (code: Int32) in
                if joiner.join(on: interface) == nil { finish(code) } else { exitWhenReleased = code }
            }
            joiner.onHeldChanged = { _, held in
                if !held, let code = exitWhenReleased { finish(code) }
            }
            try loop.onSignal(SIGTERM) { finish(status) }
            try loop.onSignal(SIGINT) { finish(status) }
            let join = try joiner.join(ssid: ssid, credential: credential, interface: interface) { result in
                StandardOutput.write("result \(result)\n")
                guard case .joined = result else {
                    // Being undone by the joiner.
                    finishOnceReleased(1)
                    return
                }
                status = 0
            }
            join.whenLinkLost { reason in
                StandardOutput.write("link lost: \(reason)\n")
                finishOnceReleased(1)
            }
            // The end of stdin means "leave": the caller went away.
            var stdinWatch: WatchToken?
            stdinWatch = try? loop.watch(fd: 0) { _ in
                if SecretInput.drainReachedEnd() {
                    if let stdinWatch { loop.stopWatching(stdinWatch) }
                    finish(status)
                }
            }
            return try loop.run()
        } catch let error as HotspotJoinError {
            StandardOutput.write("result failed reason=\(error)\n")
            logger.error("Cannot join hotspot: \(error)")
            return 1
        } catch {
            StandardError.write("accessoryd: \(error)\n")
            return 1
        }
    }
}
