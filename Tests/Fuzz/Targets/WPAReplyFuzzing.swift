import AccessoryCodecs

/// A reply read from wpa_supplicant's control socket, read as each kind of
/// command's answer.
let wpaReplyTarget = FuzzTarget(name: "wpa-reply") { bytes in
    _ = try? WPAReply.expectOK(bytes)
    _ = try? WPAReply.expectPong(bytes)
    _ = try? WPAReply.networkID(bytes)
    if let status = try? WPAReply.status(bytes) {
        expect(status.isCompleted == (status.state == "COMPLETED"), "a status's completion disagrees with its state")
    }
    if let networks = try? WPAReply.networkList(bytes) {
        expect(networks.count <= bytes.count, "more networks than octets")
    }
    _ = try? WPAReply.ssidValue(bytes)
}
