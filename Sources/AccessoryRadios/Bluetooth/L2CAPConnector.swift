import AccessoryCore
import AccessoryPlatform
import Glibc

/// One non-blocking L2CAP LE connection attempt on the daemon's event loop:
/// bind to the controller, connect, wait for the socket to become writable
/// (or fail) without blocking the loop, give up at the deadline. The
/// completion runs exactly once, on the loop; on success it receives the
/// connected socket, which the caller then owns (a plain fd, fit to pass on).
public final class L2CAPConnector {
    public typealias Completion = (Result<Int32, L2CAPConnectionError>) -> Void

    private let loop: EventLoop
    /// Where the deadline is armed: the loop's, or a test's manual one.
    private let scheduler: any Scheduler
    private var fd: Int32 = -1
    private var completion: Completion?
    private var writable: SocketEventSource?
    private var timer: TimerToken?

    /// Starts the attempt. `completion` never runs before this returns: an
    /// attempt that ends at once (bind failed, refused) reports on the loop's next turn.
    @discardableResult
    public static func connect(
        loop: EventLoop, scheduler: (any Scheduler)? = nil, from controller: BluetoothAddress,
        to peer: BluetoothDeviceIdentifier, kind: L2CAPChannelKind, security: L2CAPSecurity.Level? = nil, timeout: Duration,
        completion: @escaping Completion
    ) -> L2CAPConnector {
        let connector = L2CAPConnector(loop: loop, scheduler: scheduler ?? loop, completion: completion)
        connector.start(controller: controller, peer: peer, kind: kind, security: security, timeout: timeout)
        return connector
    }

    private init(loop: EventLoop, scheduler: any Scheduler, completion: @escaping Completion) {
        self.loop = loop
        self.scheduler = scheduler
        self.completion = completion
    }

    /// Abandons the attempt (closing the socket, which cancels the kernel's
    /// connection attempt); the completion does not run.
    public func cancel() {
        completion = nil
        cleanUp(closeSocket: true)
    }

    public var isFinished: Bool { completion == nil }

    private func start(
        controller: BluetoothAddress, peer: BluetoothDeviceIdentifier, kind: L2CAPChannelKind, security: L2CAPSecurity.Level?,
        timeout: Duration
    ) {
        do throws(L2CAPConnectionError) {
            fd = try L2CAPSocket.bound(controller: controller, kind: kind)
            if let security {
                // Before connecting: the kernel then encrypts with the bond's key before the channel counts as open.
                do throws(SystemError) {
                    try L2CAPSocket.requireSecurity(security, fd: fd)
                } catch {
                    throw L2CAPConnectionError(operation: error.operation, errno: error.errno)
                }
            }
            if try L2CAPSocket.startConnect(fd: fd, peer: peer, kind: kind) {
                finishSoon(.success(fd))
                return
            }
            // A connecting socket becomes writable when connected; errors and
            // hang-ups are reported whatever the mask.
            writable = try? SocketEventSource(loop: loop, fd: fd, events: SocketEventSource.writable) { [weak self] _ in
                self?.connectEnded()
            }
            timer = scheduler.at(scheduler.now.advanced(by: timeout)) { [weak self] in
                self?.timer = nil
                self?.finish(.failure(.timedOut))
            }
            if writable == nil {
                finishSoon(.failure(.system(operation: "sd_event_add", errno: ENOMEM)))
            }
        } catch {
            finishSoon(.failure(error))
        }
    }

    private func finishSoon(_ result: Result<Int32, L2CAPConnectionError>) {
        writable?.cancel()
        writable = nil
        if let timer { scheduler.cancel(timer) }
        timer = scheduler.at(scheduler.now) { [weak self] in
            self?.timer = nil
            self?.finish(result)
        }
    }

    private func connectEnded() {
        if let error = L2CAPSocket.pendingError(fd: fd) {
            finish(.failure(error))
        } else if Self.isConnected(fd) {
            finish(.success(fd))
        } else {
            // Woken without an error but not connected: the attempt was torn down.
            finish(.failure(.aborted))
        }
    }

    /// getpeername succeeds only on a connected socket.
    private static func isConnected(_ fd: Int32) -> Bool {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        } == 0
    }

    private func finish(_ result: Result<Int32, L2CAPConnectionError>) {
        guard let completion else { return }
        self.completion = nil
        let succeeded = (try? result.get()) != nil
        cleanUp(closeSocket: !succeeded)
        completion(result)
    }

    private func cleanUp(closeSocket: Bool) {
        writable?.cancel()
        writable = nil
        if let timer { scheduler.cancel(timer) }
        timer = nil
        if closeSocket && fd >= 0 { close(fd) }
        fd = -1
    }

    deinit { if completion != nil { cleanUp(closeSocket: true) } }
}
