import AccessoryCore

/// The Wi-Fi Alliance OWE Transition Mode element (vendor 221, OUI 50-6F-9A,
/// type 0x1C, OWE specification v1.1 §2.3.1): an open BSS names its hidden OWE
/// twin (and the twin names the open one).
public struct OWETransitionElement: Hashable, Sendable {
    public static let header: [UInt8] = [0x50, 0x6F, 0x9A, 0x1C]

    public enum Field: String, Hashable, Sendable { case bssid, ssidLength, ssid, bandAndChannel }

    public var bssid: BSSID
    public var ssid: SSID
    /// The twin's operating class and channel, when the element carries them.
    public var operatingClass: UInt8?
    public var channel: UInt8?

    public static func matches(vendorBody body: ArraySlice<UInt8>) -> Bool {
        body.starts(with: header)
    }

    /// Parses a vendor element's body, the OUI and type included.
    public init(parsingVendorBody body: ArraySlice<UInt8>) throws(IEParsingError) {
        guard Self.matches(vendorBody: body) else {
            throw .unexpectedVendorHeader(expected: Self.header, actual: Array(body.prefix(4)))
        }
        var reader = WiFiByteReader(body.dropFirst(Self.header.count))
        guard let octets = reader.take(6), let bssid = BSSID(octets: octets) else {
            throw .oweTransitionTruncated(field: .bssid)
        }
        guard let length = reader.readUInt8() else { throw .oweTransitionTruncated(field: .ssidLength) }
        guard let ssidBytes = reader.take(Int(length)) else {
            throw .oweTransitionTruncated(field: .ssid)
        }
        guard let ssid = SSID(bytes: ssidBytes) else {
            throw .oweTransitionSSIDTooLong(length: Int(length))
        }
        self.bssid = bssid
        self.ssid = ssid
        switch reader.remaining {
        case 0:
            operatingClass = nil
            channel = nil
        case 1:
            throw .oweTransitionTruncated(field: .bandAndChannel)
        default:
            operatingClass = reader.readUInt8()
            channel = reader.readUInt8()
        }
    }
}
