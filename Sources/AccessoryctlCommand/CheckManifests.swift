import AccessoryCore
import AccessoryPlatform
import AccessoryCommandLine

/// `accessoryctl check-manifests`: what accessoryd would make of the app
/// manifests, without asking it.
struct CheckManifests: ControlCommand {
    static let declaration = CommandDeclaration(
        "check-manifests",
        abstract: "Check the app manifests and show what each app may look for.",
        discussion: "Exits with status 1 when any manifest would be refused.",
        options: [
            OptionDeclaration(
                "vendor-directory", valueName: "dir", help: "The apps' packages' directory.",
                defaultValue: AppManifestLoader.vendorDirectory, completion: .directory),
            OptionDeclaration(
                "admin-directory", valueName: "dir", help: "The administrator's directory, which wins.",
                defaultValue: AppManifestLoader.administratorDirectory, completion: .directory),
        ])

    var vendorDirectory: String
    var adminDirectory: String

    init(_ line: ParsedCommandLine) {
        vendorDirectory = line.value("vendor-directory") ?? AppManifestLoader.vendorDirectory
        adminDirectory = line.value("admin-directory") ?? AppManifestLoader.administratorDirectory
    }

    func run() -> Int32 {
        let (catalog, unreadable) = AppCatalogLoader(
            vendorDirectory: vendorDirectory, administratorDirectory: adminDirectory
        ).load()
        for app in catalog.manifests.keys.sorted() {
            for line in Self.describe(catalog.manifests[app]!) { print(line) }
        }
        for app in catalog.masked.sorted() { print("\(app): masked by an empty file in \(adminDirectory)") }
        let problems = catalog.errors.map(\.description) + catalog.imageRefusals.map(\.description) + unreadable.map(\.description)
        for problem in problems { print("refused: \(problem)") }
        if catalog.manifests.isEmpty && catalog.masked.isEmpty && problems.isEmpty { print("no app manifests in \(vendorDirectory) or \(adminDirectory)") }
        return problems.isEmpty ? 0 : 1
    }

    static func describe(_ manifest: AppManifest) -> [String] {
        var identity: [String] = []
        if let user = manifest.user { identity.append("user=\(user)") }
        if let unit = manifest.unit { identity.append("unit=\(unit)") }
        var radios: [String] = []
        if manifest.supports.contains(.bluetooth) { radios.append("bluetooth") }
        if manifest.supports.contains(.wifi) { radios.append("wifi") }
        var lines = ["\(manifest.app): \(identity.joined(separator: " ")) supports=\(radios.joined(separator: ","))  (\(manifest.source))"]
        func list(_ name: String, _ values: [String]) {
            if !values.isEmpty { lines.append("  \(name): \(values.joined(separator: ", "))") }
        }
        list("service UUIDs", manifest.bluetoothServiceUUIDs.sorted().map(\.description))
        list("company identifiers", manifest.bluetoothCompanyIdentifiers.sorted().map { "0x" + hexByte(UInt8($0 >> 8), uppercase: true) + hexByte(UInt8($0 & 0xFF), uppercase: true) })
        list("names", manifest.bluetoothNames.sorted().map { "\"\($0)\"" })
        if manifest.bluetoothPairing { lines.append("  pairing: yes") }
        list("SSIDs", manifest.ssids.map { "\"\($0.displayName)\"" }.sorted())
        list("product images", manifest.productImages)
        list("SSID prefixes", manifest.ssidPrefixes.map { "\"\(SSID(bytes: $0)?.displayName ?? hexString($0))\"" }.sorted())
        return lines
    }
}
