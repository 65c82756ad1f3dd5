import Glibc

/// A thread of its own for work that must block outside Swift's cooperative
/// pool (a client's bus connection, where `sd_bus_call` waits for replies).
/// Detached: it ends when `body` returns, and nobody joins it.
public enum DetachedThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts a pthread running `body`.
    public static func start(_ body: @escaping @Sendable () -> Void) throws(SystemError) {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            Unmanaged<Body>.fromOpaque(argument).takeRetainedValue().run()
            return nil
        }, box)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw SystemError(operation: "pthread_create", errno: result)
        }
        pthread_detach(thread)
    }
}
