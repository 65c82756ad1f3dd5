import AccessoryCore
import Logging
import Testing
@testable import AccessoryDaemon
@testable import AccessoryPlatform
@testable import AccessoryRadios

/// What the broker decides before any socket exists (the lab's bt-channel
/// scenario covers connecting, the limit, and revocation).
@Suite(.serialized) struct ChannelBrokerTests {
    static let peer = BluetoothDeviceIdentifier(address: BluetoothAddress("00:AA:01:01:00:01")!, addressType: .public)

    static func controller(_ index: UInt16, up: Bool = true, le: Bool = true) -> BluetoothControllerInfo {
        BluetoothControllerInfo(
            index: index, name: "hci\(index)", address: BluetoothAddress(rawValue: 0x00AA_0100_0000 + UInt64(index))!,
            isUp: up, supportsLowEnergy: le)
    }

    /// Opens and runs the loop until the completion ran; also reports whether it ran inside `open`.
    func open(_ controllers: [BluetoothControllerInfo], controller: String? = nil) throws
        -> (result: Result<BrokeredChannel, ChannelError>?, ranInsideOpen: Bool)
    {
        let loop = try EventLoop()
        let broker = ChannelBroker(loop: loop, controllers: { controllers }, logger: Logger(label: "test"))
        var result: Result<BrokeredChannel, ChannelError>?
        broker.open(accessory: AccessoryID(1), peer: Self.peer, controller: controller) { result = $0 }
        let ranInsideOpen = result != nil
        for _ in 0..<20 where result == nil { _ = loop.runOnce(timeout: .milliseconds(100)) }
        return (result, ranInsideOpen)
    }

    @Test func noControllerUp() throws {
        for controllers in [[], [Self.controller(0, up: false)], [Self.controller(0, le: false)]] {
            let (result, ranInsideOpen) = try open(controllers)
            #expect(!ranInsideOpen)
            #expect(throws: ChannelError.noController) { try result?.get() }
        }
    }

    @Test func namedControllerMustBeThereAndUp() throws {
        let (result, _) = try open([Self.controller(0), Self.controller(1, up: false)], controller: "hci1")
        #expect(throws: ChannelError.noSuchController("hci1")) { try result?.get() }
        let (missing, _) = try open([Self.controller(0)], controller: "hci5")
        #expect(throws: ChannelError.noSuchController("hci5")) { try missing?.get() }
    }

    @Test func revokingWithoutChannelsIsHarmless() throws {
        let loop = try EventLoop()
        let broker = ChannelBroker(loop: loop, controllers: { [] }, logger: Logger(label: "test"))
        broker.revoke(accessory: AccessoryID(9))
        #expect(broker.channels(of: AccessoryID(9)).isEmpty)
    }

    @Test func errorsReadAsReasons() {
        #expect(ChannelError.connectionLimitReached(controller: "hci0", limit: 1).description
            == "connection limit reached on hci0 (limit 1)")
        #expect(ChannelError.connectionFailed(.timedOut).description == "connection failed: connection timed out")
    }
}
