import AccessoryCodecs

/// An HCI event packet as a raw HCI socket or the monitor channel hands it over.
let hciEventTarget = FuzzTarget(name: "hci-event") { bytes in
    let event = try? HCIEvent.decode(bytes)
    // The H4 form is the same packet behind an indicator octet.
    let viaH4 = try? HCIEvent.decode(h4Packet: [HCIPacketIndicator.event.rawValue] + bytes)
    expect(event == viaH4, "the H4 form decodes differently")
    if let event {
        _ = try? HCIDeviceEvent.decode(event)
        if case .leMeta(.advertisingReports(let reports)) = event {
            for report in reports {
                expect(report.data.count <= LEAdvertisingReport.maximumDataLength, "a legacy report longer than 31 octets")
            }
        }
    }
    // The same octets read as a command, as the monitor channel shows commands.
    _ = try? HCICommandPacket.decode(bytes)
}
