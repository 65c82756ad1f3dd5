import AccessoryCore

/// The grant store's file: unit-file syntax an administrator can read, with
/// a version, a count and a checksum over everything before it, so that a
/// truncated or corrupted file is recognised as such and never half-loaded.
///
///     # accessoryd grant store: written atomically by accessoryd; do not edit.
///     [Store]
///     Version=1
///     Grants=1
///     [Grant 00000000000000a1]
///     App=acme-sensor-logger
///     DisplayName=Porch light
///     State=authorized
///     BluetoothAddress=AA:BB:CC:DD:EE:FF
///     BluetoothAddressType=random
///     SSID=4163 6d65            (hex)
///     SSIDRenamed=yes
///     BridgingIdentifier=…
///     ObservesPresence=yes      (only when set: a store without wishes is
///                                byte for byte what earlier versions wrote,
///                                and they ignore the key)
///     Descriptor=yes            (then DescriptorServiceUUID=…, as DescriptorFields)
///     [Checksum]
///     FNV-1a-64=0123456789abcdef
public enum GrantStoreCodec {
    public static let version = 1

    public static func encode(_ grants: [Grant]) -> [UInt8] {
        var text = "# accessoryd grant store: written atomically by accessoryd; do not edit.\n"
        text += "[Store]\nVersion=\(version)\nGrants=\(grants.count)\n"
        for grant in grants.sorted(by: { $0.accessory < $1.accessory }) {
            text += "[Grant \(grant.accessory)]\n"
            text += "App=\(grant.app)\n"
            text += "DisplayName=\(escape(grant.displayName))\n"
            text += "State=\(grant.state.rawValue)\n"
            if let bluetooth = grant.bluetooth {
                text += "BluetoothAddress=\(bluetooth.address)\n"
                text += "BluetoothAddressType=\(bluetooth.addressType.rawValue)\n"
            }
            if let ssid = grant.ssid { text += "SSID=\(hexString(ssid.bytes))\n" }
            if grant.ssidRenamed { text += "SSIDRenamed=yes\n" }
            if let bridging = grant.bridgingIdentifier { text += "BridgingIdentifier=\(escape(bridging))\n" }
            if grant.observesPresence { text += "ObservesPresence=yes\n" }
            if let descriptor = grant.descriptor {
                // Present even when empty, so "no descriptor" and "an empty one" differ.
                text += "Descriptor=yes\n"
                for (key, value) in DescriptorFields.fields(of: descriptor) {
                    text += "Descriptor\(key)=\(escape(value))\n"
                }
            }
        }
        let body = Array(text.utf8)
        return body + Array("[Checksum]\nFNV-1a-64=\(checksum(body))\n".utf8)
    }

    public static func decode(_ bytes: [UInt8]) throws(GrantStoreError) -> [Grant] {
        let marker = Array("[Checksum]\n".utf8)
        guard let split = lastRange(of: marker, in: bytes) else { throw .truncated }
        let body = Array(bytes[..<split])
        let trailer = bytes[(split + marker.count)...]
        guard trailer.last == UInt8(ascii: "\n") else { throw .truncated }
        guard String(decoding: trailer, as: UTF8.self) == "FNV-1a-64=\(checksum(body))\n" else {
            throw .checksumMismatch
        }
        let file: KeyFile
        do { file = try KeyFile(parsing: body, source: "grants") } catch { throw .malformed(error.description) }

        // Grouped in one pass: filtering the entries once per section would
        // make loading quadratic in the number of grants.
        var valuesBySection: [String: [String: String]] = [:]
        for entry in file.entries { valuesBySection[entry.section, default: [:]][entry.key] = entry.value }
        func values(_ section: String) -> [String: String] { valuesBySection[section] ?? [:] }
        let store = values("Store")
        guard let versionText = store["Version"], let storeVersion = Int(versionText) else { throw .malformed("no [Store] Version") }
        guard storeVersion == version else { throw .unsupportedVersion(storeVersion) }

        var grants: [Grant] = []
        for section in file.sections where section != "Store" {
            guard section.hasPrefix("Grant "), let id = AccessoryID(section.dropFirst("Grant ".count)) else {
                throw .malformed("unexpected section [\(section)]")
            }
            let fields = values(section)
            guard let app = fields["App"], !app.isEmpty,
                let name = fields["DisplayName"].flatMap(unescape),
                let state = fields["State"].flatMap(AuthorizationState.init(rawValue:))
            else { throw .malformed("grant \(id) lacks App, DisplayName or State") }
            var grant = Grant(accessory: id, app: AppID(app), displayName: name, state: state)
            if let address = fields["BluetoothAddress"] {
                guard let parsed = HardwareAddress(address),
                    let type = fields["BluetoothAddressType"].flatMap(UInt8.init).flatMap(BluetoothAddressType.init(rawValue:))
                else { throw .malformed("grant \(id) has a bad Bluetooth identity") }
                grant.bluetooth = BluetoothDeviceIdentifier(address: parsed, addressType: type)
            }
            if let hex = fields["SSID"] {
                guard let octets = AccessoryCore.bytes(fromHex: hex), let ssid = SSID(bytes: octets) else {
                    throw .malformed("grant \(id) has a bad SSID")
                }
                grant.ssid = ssid
            }
            grant.ssidRenamed = fields["SSIDRenamed"] == "yes"
            grant.observesPresence = fields["ObservesPresence"] == "yes"
            if let bridging = fields["BridgingIdentifier"] {
                guard let text = unescape(bridging) else { throw .malformed("grant \(id) has a bad BridgingIdentifier") }
                grant.bridgingIdentifier = text
            }
            if fields["Descriptor"] == "yes" {
                var pairs: [(key: String, value: String)] = []
                for key in DescriptorFields.keys {
                    guard let raw = fields["Descriptor" + key] else { continue }
                    guard let value = unescape(raw) else { throw .malformed("grant \(id) has a bad Descriptor\(key)") }
                    pairs.append((key, value))
                }
                do { grant.descriptor = try DescriptorFields.descriptor(from: pairs) } catch {
                    throw .malformed("grant \(id) has a bad descriptor: \(error)")
                }
            }
            grants.append(grant)
        }
        guard store["Grants"] == String(grants.count) else { throw .malformed("grant count does not match") }
        return grants
    }

    /// FNV-1a, 64 bit: catches truncation and stray bytes; not a defence
    /// against someone forging the file, who could as well rewrite it.
    static func checksum(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Names are the user's text: control characters, `\` and spaces at
    /// either end are written as `\xNN`, so a name can never start a new line
    /// of the file and comes back exactly as given.
    static func escape(_ text: String) -> String {
        var out = ""
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            // Spaces at either end too: the file syntax trims them from values.
            let edgeSpace = scalar == " " && (index == 0 || index == scalars.count - 1)
            if scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\\" || edgeSpace {
                out += "\\x" + hexByte(UInt8(scalar.value))
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func unescape(_ text: String) -> String? {
        let utf8 = Array(text.utf8)
        var out: [UInt8] = []
        var i = 0
        while i < utf8.count {
            if utf8[i] == UInt8(ascii: "\\") {
                guard i + 3 < utf8.count, utf8[i + 1] == UInt8(ascii: "x"),
                    let byte = AccessoryCore.bytes(fromHex: String(decoding: utf8[(i + 2)...(i + 3)], as: UTF8.self))?.first
                else { return nil }
                out.append(byte)
                i += 4
            } else {
                out.append(utf8[i])
                i += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    static func lastRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = haystack.count - needle.count
        while index >= 0 {
            if haystack[index..<(index + needle.count)].elementsEqual(needle),
                index == 0 || haystack[index - 1] == UInt8(ascii: "\n")
            {
                return index
            }
            index -= 1
        }
        return nil
    }
}

/// Why a grant store file was not loaded.
public enum GrantStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file ends before its checksum: a write cut short.
    case truncated
    /// The content does not match its checksum.
    case checksumMismatch
    case unsupportedVersion(Int)
    case malformed(String)

    public var description: String {
        switch self {
        case .truncated: "the file is truncated (no complete checksum line)"
        case .checksumMismatch: "the content does not match its checksum"
        case .unsupportedVersion(let version): "version \(version) is not one this accessoryd reads"
        case .malformed(let why): "malformed: \(why)"
        }
    }
}
