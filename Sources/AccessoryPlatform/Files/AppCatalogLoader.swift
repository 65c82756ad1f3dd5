import AccessoryCore
import Glibc

/// Reads the app manifests from disk and hands their bytes to Core's loader.
public struct AppCatalogLoader: Sendable {
    public var vendorDirectory: String
    public var administratorDirectory: String

    public init(
        vendorDirectory: String = AppManifestLoader.vendorDirectory,
        administratorDirectory: String = AppManifestLoader.administratorDirectory
    ) {
        self.vendorDirectory = vendorDirectory
        self.administratorDirectory = administratorDirectory
    }

    /// Where manifests are looked for, as a refused caller is told.
    public var directoriesDescription: String {
        vendorDirectory == administratorDirectory ? vendorDirectory : "\(vendorDirectory) or \(administratorDirectory)"
    }

    /// The catalog, plus the files that could not even be read (each also
    /// keeps its app out; the rest load as usual). A missing directory is empty.
    public func load() -> (catalog: AppManifestCatalog, unreadable: [SystemError]) {
        var unreadable: [SystemError] = []
        func files(in directory: String) -> [ManifestFile] {
            do throws(SystemError) {
                let names = try FileSystem.entries(of: directory, withSuffix: ".conf") ?? []
                return names.compactMap { name -> ManifestFile? in
                    let path = directory + "/" + name
                    do throws(SystemError) {
                        guard let bytes = try FileSystem.readFileIfPresent(path) else { return nil }
                        return ManifestFile(path: path, bytes: bytes)
                    } catch {
                        unreadable.append(error)
                        return nil
                    }
                }
            } catch {
                unreadable.append(error)
                return []
            }
        }
        let catalog = AppManifestLoader.load(
            vendor: files(in: vendorDirectory), administrator: files(in: administratorDirectory),
            readImage: Self.readImage)
        return (catalog, unreadable)
    }

    /// A product image's bytes, read no further than one byte past the cap.
    static func readImage(_ path: String) -> Result<[UInt8], ProductImageError> {
        do throws(SystemError) {
            guard let bytes = try FileSystem.readFileIfPresent(path, limit: ProductImage.maximumBytes) else { return .failure(.missing) }
            return .success(bytes)
        } catch {
            if error.errno == EFBIG { return .failure(.tooManyBytes(ProductImage.maximumBytes + 1)) }
            return .failure(.unreadable("\(error)"))
        }
    }
}
