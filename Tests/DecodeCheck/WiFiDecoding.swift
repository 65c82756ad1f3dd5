import AccessoryCodecs
import AccessoryCore

/// What the Wi-Fi side decodes from outside bytes: the kernel's netlink and
/// nl80211 messages, beacons' elements, wpa_supplicant's replies and events,
/// and the credentials an app hands over (shown only as `<redacted>`).
let wifiDecodeTargets: [DecodeTarget] = [
    DecodeTarget(name: "netlink") { bytes in
        var messages = NetlinkMessageReader(bytes)
        var seen: [String] = []
        while true {
            do throws(NetlinkDecodingError) {
                guard let message = try messages.next() else { break }
                seen.append(parts([
                    "message": CanonicalRendering.render(message),
                    "error": outcome { try message.error() },
                    "generic": outcome { try nestedRendering(GenericNetlinkMessage(message)) },
                ]))
            } catch {
                seen.append("stop " + CanonicalRendering.render(error))
                break
            }
        }
        var attributes = NetlinkAttributeReader(bytes)
        var bare: [String] = []
        while true {
            do throws(NetlinkDecodingError) {
                guard let attribute = try attributes.next() else { break }
                bare.append(CanonicalRendering.render(attribute))
            } catch {
                bare.append("stop " + CanonicalRendering.render(error))
                break
            }
        }
        return "messages=[" + seen.joined(separator: "; ") + "] | attributes=[" + bare.joined(separator: ", ") + "]"
    },
    DecodeTarget(name: "nl80211-scan") { bytes in
        parts([
            "dump": outcome { try NL80211ScanResultDecoder.decodeDump(bytes) },
            "message": outcome { try NL80211ScanResultDecoder.decode(message: bytes) },
            "bss": outcome { try NL80211ScanResultDecoder.decode(bssAttributes: bytes[...], interfaceIndex: 3) },
        ])
    },
    DecodeTarget(name: "information-elements") { bytes in
        let parsed = Result { try InformationElements.parse(bytes) }
        return parts([
            "elements": outcome { try InformationElements.elements(bytes[...]) },
            "parsed": outcome { try parsed.get() },
            "channel": outcome { try parsed.get().primaryChannel },
            "band": outcome { try parsed.get().band },
            "privacy": outcome { security(fromIEs: try parsed.get(), capability: 0x0010) },
            "open": outcome { security(fromIEs: try parsed.get(), capability: 0) },
        ])
    },
    DecodeTarget(name: "wpa-reply") { bytes in
        parts([
            "ok": outcome { try WPAReply.expectOK(bytes) },
            "pong": outcome { try WPAReply.expectPong(bytes) },
            "id": outcome { try WPAReply.networkID(bytes) },
            "status": outcome { try WPAReply.status(bytes) },
            "networks": outcome { try WPAReply.networkList(bytes) },
            "ssid": outcome { try WPAReply.ssidValue(bytes) },
        ])
    },
    DecodeTarget(name: "wpa-event") { bytes in
        outcome { try WPAEventParser.parse(bytes) }
    },
    DecodeTarget(name: "wpa-credentials") { bytes in
        parts([
            "passphrase": outcome { try WPAPassphrase(bytes: bytes).form },
            "sae": outcome { try SAEPassword(bytes: bytes) },
        ])
    },
]

/// A generic netlink message with every attribute that parses as nested
/// opened, to any depth: what the scanner's lookups walk.
private func nestedRendering(_ message: GenericNetlinkMessage) -> String {
    "command \(message.command) version \(message.version) " + attributesRendering(message.attributes)
}

private func attributesRendering(_ attributes: NetlinkAttributes) -> String {
    "[" + attributes.all.map { attribute in
        var text = CanonicalRendering.render(attribute) + " uint32 " + outcome { try attribute.uint32() }
        if let children = try? attribute.nested() { text += " nested " + attributesRendering(children) }
        return text
    }.joined(separator: ", ") + "]"
}
