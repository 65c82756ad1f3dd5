import AccessoryCodecs

/// A management event as the kernel's HCI_CHANNEL_CONTROL socket hands it
/// over, for a pairing without bluetoothd. A decoded key's size is one pairing can agree.
let managementEventTarget = FuzzTarget(name: "management-event") { bytes in
    guard let event = try? ManagementPairingEvent.decode(bytes) else { return }
    if case .newLongTermKey(_, let key) = event, let ltk = key.longTermKey {
        expect((7...16).contains(ltk.keySize), "a long-term key of a size pairing cannot agree")
    }
}
