import AccessoryATT

/// An ATT PDU from a peer over the Bluetooth LE channel. What decodes encodes
/// to octets that decode to the same PDU.
let attPDUTarget = FuzzTarget(name: "att-pdu") { bytes in
    guard let pdu = try? ATTPDU(decoding: bytes) else { return }
    let encoded = pdu.encoded
    expect(encoded.count <= bytes.count, "encoding a PDU made it longer than what it was decoded from")
    let again = try? ATTPDU(decoding: encoded)
    expect(again == pdu, "a decoded PDU does not survive encoding and decoding")
}
