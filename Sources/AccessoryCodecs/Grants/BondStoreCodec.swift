import AccessoryCore

/// The bond store's file, beside the grant store and framed as it is (unit-file
/// syntax, a version, a count, an FNV-1a checksum over everything before it),
/// so that a truncated or corrupted file is recognised and never half-loaded.
/// It holds secret keys: accessoryd writes it mode 0600, and no error names a
/// key's value, only the field that was wrong.
///
///     # accessoryd bond store: written atomically by accessoryd; do not edit.
///     [Store]
///     Version=1
///     Bonds=1
///     [Bond 00000000000000a1]                 (the grant's accessory)
///     BluetoothAddress=C0:11:22:33:44:55      (the identity address)
///     BluetoothAddressType=1                  (0 public, 1 static random)
///     IdentityResolvingKey=ec0234a3…          (32 hex digits, most significant
///     LongTermKey=…                            first, as the Core Specification
///     LongTermKeySize=16                       prints keys; each key optional,
///     LongTermKeyAuthenticated=yes             at least one present)
///     LongTermKeySecureConnections=no
///     LongTermKeyEDIV=4660                    (legacy pairing only, decimal)
///     LongTermKeyRand=0123456789abcdef        (legacy pairing only, 16 hex digits)
///     SignatureResolvingKey=…                 (the CSRK)
///     KeptBy=bluetoothd                       (only for a bond bluetoothd
///                                              keeps: then no key is needed)
///     [Checksum]
///     FNV-1a-64=0123456789abcdef
public enum BondStoreCodec {
    public static let version = 1

    public static func encode(_ bonds: [Bond]) -> [UInt8] {
        var text = "# accessoryd bond store: written atomically by accessoryd; do not edit.\n"
        text += "[Store]\nVersion=\(version)\nBonds=\(bonds.count)\n"
        for bond in bonds.sorted(by: { $0.accessory < $1.accessory }) {
            text += "[Bond \(bond.accessory)]\n"
            text += "BluetoothAddress=\(bond.identity.address)\n"
            text += "BluetoothAddressType=\(bond.identity.addressType.rawValue)\n"
            if let irk = bond.irk { text += "IdentityResolvingKey=\(irk.hex)\n" }
            if let ltk = bond.ltk {
                text += "LongTermKey=\(ltk.key.hex)\n"
                text += "LongTermKeySize=\(ltk.keySize)\n"
                text += "LongTermKeyAuthenticated=\(ltk.authenticated ? "yes" : "no")\n"
                text += "LongTermKeySecureConnections=\(ltk.secureConnections ? "yes" : "no")\n"
                if !ltk.secureConnections {
                    text += "LongTermKeyEDIV=\(ltk.ediv)\n"
                    text += "LongTermKeyRand=\(hexString(withUnsafeBytes(of: ltk.rand.bigEndian, Array.init)))\n"
                }
            }
            if let csrk = bond.csrk { text += "SignatureResolvingKey=\(csrk.hex)\n" }
            if bond.keeper == .bluetoothd { text += "KeptBy=bluetoothd\n" }
        }
        let body = Array(text.utf8)
        return body + Array("[Checksum]\nFNV-1a-64=\(GrantStoreCodec.checksum(body))\n".utf8)
    }

    public static func decode(_ bytes: [UInt8]) throws(BondStoreError) -> [Bond] {
        let marker = Array("[Checksum]\n".utf8)
        guard let split = GrantStoreCodec.lastRange(of: marker, in: bytes) else { throw .truncated }
        let body = Array(bytes[..<split])
        let trailer = bytes[(split + marker.count)...]
        guard trailer.last == UInt8(ascii: "\n") else { throw .truncated }
        guard String(decoding: trailer, as: UTF8.self) == "FNV-1a-64=\(GrantStoreCodec.checksum(body))\n" else {
            throw .checksumMismatch
        }
        let file: KeyFile
        // The line only: KeyFile's reason quotes the line, which may hold a key.
        do { file = try KeyFile(parsing: body, source: "bonds") } catch { throw .syntax(line: error.line) }

        var valuesBySection: [String: [String: String]] = [:]
        for entry in file.entries { valuesBySection[entry.section, default: [:]][entry.key] = entry.value }
        let store = valuesBySection["Store"] ?? [:]
        guard let versionText = store["Version"], let storeVersion = Int(versionText) else { throw .noVersion }
        guard storeVersion == version else { throw .unsupportedVersion(storeVersion) }

        var bonds: [Bond] = []
        var seen = Set<AccessoryID>()
        var identities = Set<BluetoothDeviceIdentifier>()
        for header in file.sectionHeaders where header.name != "Store" {
            let section = header.name
            guard section.hasPrefix("Bond "), let id = AccessoryID(section.dropFirst("Bond ".count)) else {
                throw .unexpectedSection(line: header.line)
            }
            guard seen.insert(id).inserted else { throw .duplicateBond(id) }
            let bond = try self.bond(id, valuesBySection[section] ?? [:])
            guard identities.insert(bond.identity).inserted else { throw .duplicateIdentity(id) }
            bonds.append(bond)
        }
        guard store["Bonds"] == String(bonds.count) else { throw .countMismatch }
        return bonds
    }

    private static func bond(_ id: AccessoryID, _ fields: [String: String]) throws(BondStoreError) -> Bond {
        func required(_ key: String) throws(BondStoreError) -> String {
            guard let value = fields[key] else { throw .missingField(id, key) }
            return value
        }
        func key(_ name: String) throws(BondStoreError) -> SecurityKey? {
            guard let hex = fields[name] else { return nil }
            guard let key = SecurityKey(hex: hex) else { throw .badValue(id, name) }
            return key
        }
        func flag(_ name: String) throws(BondStoreError) -> Bool {
            switch try required(name) {
            case "yes": return true
            case "no": return false
            default: throw .badValue(id, name)
            }
        }

        guard let address = HardwareAddress(try required("BluetoothAddress")) else { throw .badValue(id, "BluetoothAddress") }
        // An identity is public or static random; the other types are what HCI reports for resolved addresses.
        guard let type = UInt8(try required("BluetoothAddressType")).flatMap(BluetoothAddressType.init(rawValue:)),
            type == .public || type == .random
        else { throw .badValue(id, "BluetoothAddressType") }
        var bond = Bond(accessory: id, identity: BluetoothDeviceIdentifier(address: address, addressType: type))
        bond.irk = try key("IdentityResolvingKey")
        bond.csrk = try key("SignatureResolvingKey")

        let ltkFields = ["LongTermKeySize", "LongTermKeyAuthenticated", "LongTermKeySecureConnections", "LongTermKeyEDIV", "LongTermKeyRand"]
        if let ltk = try key("LongTermKey") {
            guard let size = UInt8(try required("LongTermKeySize")), LongTermKey.keySizes.contains(size) else {
                throw .badValue(id, "LongTermKeySize")
            }
            var long = LongTermKey(key: ltk, keySize: size, authenticated: try flag("LongTermKeyAuthenticated"),
                                   secureConnections: try flag("LongTermKeySecureConnections"))
            if long.secureConnections {
                // Secure Connections has no EDIV or Rand: one here is a damaged record, not a value to drop.
                for name in ["LongTermKeyEDIV", "LongTermKeyRand"] where fields[name] != nil { throw .unexpectedField(id, name) }
            } else {
                guard let ediv = UInt16(try required("LongTermKeyEDIV")) else { throw .badValue(id, "LongTermKeyEDIV") }
                let randHex = try required("LongTermKeyRand")
                guard randHex.utf8.count == 16, let rand = bytes(fromHex: randHex) else { throw .badValue(id, "LongTermKeyRand") }
                long.ediv = ediv
                long.rand = rand.reduce(0) { $0 << 8 | UInt64($1) }
            }
            bond.ltk = long
        } else if let stray = ltkFields.first(where: { fields[$0] != nil }) {
            throw .unexpectedField(id, stray)
        }
        switch fields["KeptBy"] {
        case nil: break
        case "bluetoothd"?: bond.keeper = .bluetoothd
        case _?: throw .badValue(id, "KeptBy")
        }
        // A bond of accessoryd's own is its keys; bluetoothd's keeps them there.
        guard bond.keeper == .bluetoothd || bond.irk != nil || bond.ltk != nil || bond.csrk != nil else { throw .noKeys(id) }
        return bond
    }
}

/// Why a bond store file was not loaded. Names the bond and the field, never a key's value.
public enum BondStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file ends before its checksum: a write cut short.
    case truncated
    /// The content does not match its checksum.
    case checksumMismatch
    case unsupportedVersion(Int)
    /// Not the file's syntax, at this line (when known).
    case syntax(line: Int?)
    /// No `[Store] Version=` number.
    case noVersion
    /// A section that is neither `[Store]` nor `[Bond ID]`, at this line (not quoted: it could hold anything).
    case unexpectedSection(line: Int)
    case duplicateBond(AccessoryID)
    /// Two bonds with one identity address: which keys are the accessory's would be a guess.
    case duplicateIdentity(AccessoryID)
    case missingField(AccessoryID, String)
    case badValue(AccessoryID, String)
    /// A field that cannot be there: a long-term key's details without the key, EDIV under Secure Connections.
    case unexpectedField(AccessoryID, String)
    /// A bond that holds no key at all.
    case noKeys(AccessoryID)
    /// `[Store] Bonds=` is not the number of bonds in the file.
    case countMismatch

    public var description: String {
        switch self {
        case .truncated: "the file is truncated (no complete checksum line)"
        case .checksumMismatch: "the content does not match its checksum"
        case .unsupportedVersion(let version): "version \(version) is not one this accessoryd reads"
        case .syntax(let line): "not key-file syntax" + (line.map { " at line \($0)" } ?? "")
        case .noVersion: "no [Store] Version"
        case .unexpectedSection(let line): "unexpected section at line \(line)"
        case .duplicateBond(let id): "bond \(id) appears twice"
        case .duplicateIdentity(let id): "bond \(id) has the identity address of another bond"
        case .missingField(let id, let key): "bond \(id) lacks \(key)"
        case .badValue(let id, let key): "bond \(id) has a bad \(key)"
        case .unexpectedField(let id, let key): "bond \(id) has \(key), which its other fields rule out"
        case .noKeys(let id): "bond \(id) holds no key"
        case .countMismatch: "the bond count does not match"
        }
    }
}
