import AccessoryPlatform
@testable import AccessorySetup

/// A connection on the test's bus that is not the agent, for the tests that
/// check a session ignores signals from anyone else. `send` returns once the
/// bus has the forged signals on their way to their destination.
enum Impostor {
    static func send(
        on address: String, _ forge: @escaping @Sendable (BusConnection) throws -> Void
    ) async throws(AccessorySetupError) {
        let thread = try BusThread()
        defer { thread.stop() }
        try await thread.perform { context throws(AccessorySetupError) in
            do {
                let connection = try BusConnection(address: address, loop: context.loop)
                context.connection = connection
                try forge(connection)
                // The bus handles a connection's messages in order: once it has
                // answered this, the forged signals are on their way.
                _ = try connection.call(
                    destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                    interface: "org.freedesktop.DBus", member: "GetId")
            } catch {
                throw AccessorySetupError(.unknown, reason: .message("\(error)"))
            }
        }
    }
}
