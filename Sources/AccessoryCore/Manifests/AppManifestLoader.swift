/// Builds the app catalog from the two manifest directories, without touching
/// the disk: the daemon reads the files and passes their bytes.
///
/// As with systemd's unit directories, only `*.conf` files count, and a file
/// in the administrator's directory replaces the vendor's file of the same
/// name entirely; an empty one there masks the app. A malformed file is
/// refused on its own and the other apps load as usual. The file syntax is
/// described on `AppManifestParser`; in short, like a unit file:
///
///     [App]
///     Name=acme-sensor-logger
///     User=acmelog
///     Unit=acme-logger.service
///     Supports=Bluetooth Wi-Fi
///     [Bluetooth]
///     ServiceUUIDs=180F FCD2
///     CompanyIdentifiers=0x004C
///     Names=Acme Sensor
///     [Wi-Fi]
///     SSIDPrefixes=ACME-
public enum AppManifestLoader {
    /// Installed by each app's package.
    public static let vendorDirectory = "/usr/share/accessoryd/apps.d"
    /// The administrator's; wins over the vendor's.
    public static let administratorDirectory = "/etc/accessoryd/apps.d"

    /// `readImage` gives a product image's bytes (or why not); each named
    /// image is read once per manifest and checked by `ProductImage.validate`.
    public static func load(
        vendor: [ManifestFile], administrator: [ManifestFile],
        readImage: (String) -> Result<[UInt8], ProductImageError> = { _ in .failure(.missing) }
    ) -> AppManifestCatalog {
        var chosen: [String: ManifestFile] = [:]
        for file in vendor where file.fileName.hasSuffix(".conf") { chosen[file.fileName] = chosen[file.fileName] ?? file }
        var fromAdministrator = Set<String>()
        for file in administrator where file.fileName.hasSuffix(".conf") && fromAdministrator.insert(file.fileName).inserted {
            chosen[file.fileName] = file
        }

        var catalog = AppManifestCatalog()
        for name in chosen.keys.sorted() {
            let file = chosen[name]!
            let stem = String(name.dropLast(".conf".count))
            if file.bytes.isEmpty, fromAdministrator.contains(name) {
                catalog.masked.insert(AppID(stem))
                continue
            }
            do throws(KeyFileError) {
                var manifest = try AppManifestParser.parse(file.bytes, source: file.path, fileStem: stem)
                manifest.productImages = manifest.productImages.filter { path in
                    do throws(ProductImageError) {
                        _ = try ProductImage.validate(try readImage(path).get(), path: path)
                        return true
                    } catch {
                        catalog.imageRefusals.append(ProductImageRefusal(manifest: file.path, image: path, error: error))
                        return false
                    }
                }
                catalog.manifests[manifest.app] = manifest
            } catch {
                catalog.errors.append(error)
            }
        }
        return catalog
    }
}
