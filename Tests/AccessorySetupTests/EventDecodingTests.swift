import AccessoryCore
import AccessoryWire
import Testing
@testable import AccessorySetup

/// Signals become events with ASK's names, carrying the accessory and the error.
@Suite struct EventDecodingTests {
    let lamp = Accessory(id: AccessoryID(0xA1), displayName: "Lamp", state: .authorized)

    @Test func theEventTypesAreASKs() {
        #expect(AccessoryEvent.EventType.allCases.map(\.rawValue) == [
            "unknown", "activated", "invalidated", "migrationComplete", "accessoryAdded", "accessoryRemoved",
            "accessoryChanged", "accessoryDiscovered", "pickerDidPresent", "pickerDidDismiss",
            "pickerSetupBridging", "pickerSetupPairing", "pickerSetupFailed", "pickerSetupRename", "serviceRestarted",
        ])
    }

    @Test func eachSignalGivesItsEventType() {
        let path = "/org/accessoryagent/accessory/00000000000000a1"
        let found = DiscoveredAccessory(candidate: 1, name: "Lamp", identity: "00:AA:01:01:00:01/random", rssi: -50, advertisement: [])
        let signals: [(SessionSignal, AccessoryEvent.EventType)] = [
            (.activated(accessories: []), .activated), (.invalidated, .invalidated),
            (.pickerDidPresent, .pickerDidPresent), (.accessoryDiscovered(found), .accessoryDiscovered),
            (.accessoryAdded(path), .accessoryAdded), (.accessoryChanged(path), .accessoryChanged),
            (.accessoryRemoved(path), .accessoryRemoved), (.pickerSetupRename(path), .pickerSetupRename),
            (.pickerSetupPairing(path), .pickerSetupPairing), (.pickerSetupBridging(path), .pickerSetupBridging),
            (.pickerSetupFailed(error: "connectionFailed", message: ""), .pickerSetupFailed),
            (.pickerDidDismiss(error: "", message: ""), .pickerDidDismiss), (.migrationComplete, .migrationComplete),
        ]
        for (signal, type) in signals { #expect(signal.event(accessory: nil).eventType == type) }
        // Every type but `unknown` and the library's own `serviceRestarted` has its signal.
        #expect(Set(signals.map(\.1)) == Set(AccessoryEvent.EventType.signalled))
    }

    @Test func accessoryEventsNameTheirObject() {
        let path = "/org/accessoryagent/accessory/00000000000000a1"
        #expect(SessionSignal.accessoryAdded(path).accessoryPath == path)
        #expect(SessionSignal.pickerSetupBridging(path).accessoryPath == path)
        #expect(SessionSignal.pickerDidPresent.accessoryPath == nil)
        #expect(BusNames.accessory(at: path) == AccessoryID(0xA1))
        #expect(BusNames.accessory(at: "/org/accessoryagent/accessory/a1") == nil)
        #expect(BusNames.accessory(at: "/org/accessoryagent/session/1") == nil)
        #expect(BusNames.path(of: AccessoryID(0xA1)) == path)
    }

    @Test func anAddedAccessoryTravelsWithItsEvent() {
        let event = SessionSignal.accessoryAdded("/org/accessoryagent/accessory/00000000000000a1").event(accessory: lamp)
        #expect(event == AccessoryEvent(.accessoryAdded, accessory: lamp))
    }

    @Test func aPickerDismissedAfterAPickHasNoError() {
        #expect(SessionSignal.pickerDidDismiss(error: "", message: "").event(accessory: nil).error == nil)
    }

    @Test func aPickerDismissedWithoutAPickSaysWhy() {
        let denied = SessionSignal.pickerDidDismiss(error: "userCancelled", message: "denied").event(accessory: nil)
        #expect(denied.error == AccessorySetupError(.userCancelled, reason: .message("denied")))
        let timedOut = SessionSignal.pickerDidDismiss(error: "discoveryTimeout", message: "").event(accessory: nil)
        #expect(timedOut.error?.code == .discoveryTimeout)
        let failed = SessionSignal.pickerSetupFailed(error: "connectionFailed", message: "no answer").event(accessory: nil)
        #expect(failed.error == AccessorySetupError(.connectionFailed, reason: .message("no answer")))
    }

    @Test func aDiscoveredCandidateTravelsWithItsEvent() {
        let found = DiscoveredAccessory(candidate: 3, name: "Lamp", identity: "Acme-1234", rssi: -61, advertisement: [0x02, 0x01, 0x06])
        let event = SessionSignal.accessoryDiscovered(found).event(accessory: nil)
        #expect(event.discoveredAccessory == found)
        #expect(event.accessory == nil)
    }

    @Test func theArgumentsUseTheContractsWords() {
        #expect(PickerDisplayItem.SetupOptions([.rename, .confirmAuthorization, .finishInApp]).words
            == ["rename", "confirmAuthorization", "finishInApp"])
        #expect(PickerDisplayItem.SetupOptions().words.isEmpty)
        #expect(AccessoryRenameOptions.ssid.words == ["ssid"])
        let timeouts: [PickerDisplaySettings.DiscoveryTimeout] = [.short, .medium, .long, .unbounded, .seconds(45)]
        #expect(timeouts.map(\.text) == ["short", "medium", "long", "unbounded", "45"])
        #expect(PickerDisplaySettings().discoveryTimeout == .medium)
        let random = BluetoothDeviceIdentifier(address: BluetoothAddress("C0:11:22:33:44:55")!, addressType: .random)
        #expect(random.parseableText == "C0:11:22:33:44:55/random")
        let fixed = BluetoothDeviceIdentifier(address: BluetoothAddress("00:AA:01:01:00:01")!, addressType: .public)
        #expect(fixed.parseableText == "00:AA:01:01:00:01")
    }
}
