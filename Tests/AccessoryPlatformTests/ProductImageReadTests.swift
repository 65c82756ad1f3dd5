import AccessoryCore
import Foundation
import Testing
@testable import AccessoryPlatform

/// How accessoryd reads a product image for the validator: the bytes, or why not,
/// reading no further than one byte past the cap.
@Suite struct ProductImageReadTests {
    let directory: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("product-image-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    private func write(_ name: String, _ bytes: [UInt8]) -> String {
        let path = directory + "/" + name
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    @Test func readsTheFilesBytes() {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 1, 2, 3]
        #expect(AppCatalogLoader.readImage(write("small.png", bytes)) == .success(bytes))
    }

    @Test func namesWhatWentWrong() {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(AppCatalogLoader.readImage(directory + "/absent.png") == .failure(.missing))
        let big = write("big.png", [UInt8](repeating: 0, count: ProductImage.maximumBytes + 4096))
        #expect(AppCatalogLoader.readImage(big) == .failure(.tooManyBytes(ProductImage.maximumBytes + 1)))
        guard case .failure(.unreadable(let why)) = AppCatalogLoader.readImage(directory) else {
            Issue.record("a directory read as an image")
            return
        }
        #expect(why.contains("EISDIR") || why.contains("directory"), "\(why)")
    }
}
