import AccessoryCodecs

/// An unsolicited event datagram from wpa_supplicant's control socket.
let wpaEventTarget = FuzzTarget(name: "wpa-event") { bytes in
    _ = try? WPAEventParser.parse(bytes)
}
