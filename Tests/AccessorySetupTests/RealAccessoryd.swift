import AccessoryCore
import AccessoryDaemon
import AccessoryDecisions
import AccessoryPlatform
import AccessoryWire
import Foundation
import Logging
import TestSupport
@testable import AccessorySetup

/// accessoryd's real D-Bus service and authorization center on a private
/// bus, where `FakeAgent` would not do: what the daemon does with the
/// library's calls. It runs on a `BusThread` of its own, as it would in a
/// process of its own, so the test's tasks never have to turn its loop.
/// No radios: a picker waits for a decision that never comes by itself.
final class RealAccessoryd {
    /// The app the user running the tests is (and so the library in this process).
    static let app = AppManifest(app: "acme-lights", user: ProcessInfo.processInfo.userName, supports: .bluetooth,
                                 bluetoothServiceUUIDs: [BluetoothUUID(uuid16: 0x180F)], bluetoothNames: ["Lamp"])

    private let bus: PrivateBus
    private let thread: BusThread
    private let held = Held()
    /// The grant store and manifests; removed after the service is stopped.
    private let scratch: ScratchDirectory

    /// The service, made and used on the thread only.
    private final class Held: @unchecked Sendable {
        var service: AccessoryService?
    }

    init(bus: PrivateBus) async throws {
        self.bus = bus
        scratch = try ScratchDirectory("real-accessoryd")
        thread = try BusThread()
        let address = bus.address
        let directory = scratch.path
        try await thread.perform { [held, directory] context throws(AccessorySetupError) in
            do {
                let connection = try BusConnection(address: address, loop: context.loop)
                context.connection = connection
                try connection.requestName(BusNames.service)
                var catalog = AppManifestCatalog()
                catalog.manifests[Self.app.app] = Self.app
                held.service = try AccessoryService(
                    connection: connection, logger: Logger(label: "accessoryd") { _ in SwiftLogNoOpLogHandler() },
                    apps: { [catalog] in catalog }, manifestDirectories: directory,
                    center: AuthorizationCenter(
                        store: GrantStore(directory: directory), pipeline: DiscoveryPipeline(clock: context.loop),
                        logger: Logger(label: "accessoryd") { _ in SwiftLogNoOpLogHandler() }, scheduler: context.loop),
                    loop: context.loop)
            } catch {
                throw AccessorySetupError(.unknown, reason: .message("accessoryd: \(error)"))
            }
        }
    }

    deinit {
        // Off the bus in one job, so no call reaches the service as it goes.
        thread.post { [held] context in
            context.connection = nil
            held.service = nil
        }
        thread.stop()
        // Then `scratch` goes.
    }

    /// What the administrator sees: `Admin1.ListRequests` through busctl, as root.
    func listedRequests() throws -> String {
        let (process, out, _) = try bus.busctl(["call", BusNames.service, BusNames.root, BusNames.admin, "ListRequests"])
        let listed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return listed
    }

    /// Whether any accessory was granted.
    func grantsAnything() async throws -> Bool {
        try await thread.perform { [held] _ in !(held.service?.center.store.grants.isEmpty ?? true) }
    }
}
