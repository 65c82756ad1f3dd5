import AccessoryCore
import Testing
@testable import AccessoryDecisions

/// `onHeard` observers get what they want, as the registry knows it after
/// each report, and nothing else; the authorization center wants only its
/// granted accessories this way.
@Suite struct DiscoveryPipelineHeardTests {
    static func device(_ n: UInt64) -> BluetoothDeviceIdentifier {
        BluetoothDeviceIdentifier(address: BluetoothAddress(rawValue: 0xC0_FFEE_000000 + n)!, addressType: .random)
    }

    @Test func anObserverIsToldOnlyOfTheKeysItWantsWithTheMergedAdvertisement() {
        let clock = ManualClock()
        let pipeline = DiscoveryPipeline(clock: clock)
        var asked: [AccessoryKey] = []
        var heard: [TrackedAccessory] = []
        var heardByAll = 0
        pipeline.onHeard(when: { asked.append($0); return $0 == .bluetooth(Self.device(1)) }) { heard.append($0) }
        pipeline.onHeard(when: { _ in true }) { _ in heardByAll += 1 }

        pipeline.record(Advertisement(device: Self.device(1), rssi: -50, data: AdvertisingData(completeLocalName: Array("One".utf8))))
        pipeline.record(Advertisement(device: Self.device(2), rssi: -60))
        clock.advance(by: .milliseconds(100))
        pipeline.record(Advertisement(device: Self.device(1), rssi: -40, data: AdvertisingData(flags: 0x06)))

        #expect(asked == [.bluetooth(Self.device(1)), .bluetooth(Self.device(2)), .bluetooth(Self.device(1))])
        #expect(heard.map(\.key) == [.bluetooth(Self.device(1)), .bluetooth(Self.device(1))])
        #expect(heard.last?.advertisement?.data.localName == "One")
        #expect(heard.last?.advertisement?.data.flags == 0x06)
        #expect(heard.last?.lastHeard == clock.now)
        #expect(heardByAll == 3)
    }
}
