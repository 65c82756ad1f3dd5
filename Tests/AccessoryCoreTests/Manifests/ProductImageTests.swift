import Foundation
import Testing
@testable import AccessoryCore

private let imagePath = "/usr/share/accessoryd/images/acme/sensor.png"

/// PNG's chunk CRC, computed bit by bit here so the tests do not lean on the code under test.
private func crc(_ bytes: [UInt8]) -> UInt32 {
    var value: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        value ^= UInt32(byte)
        for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
    }
    return ~value
}

private func be32(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    return be32(UInt32(data.count)) + typed + be32(crc(typed))
}

/// A PNG file's bytes: signature, IHDR, the given chunks, IEND. IDAT holds a stored
/// (uncompressed) zlib stream of one transparent row, enough for the walk, which decodes no pixels.
private func png(width: UInt32 = 540, height: UInt32 = 360, depth: UInt8 = 8, colour: UInt8 = 6,
                 interlace: UInt8 = 0, before: [[UInt8]] = [], idat: Bool = true) -> [UInt8] {
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    bytes += chunk("IHDR", be32(width) + be32(height) + [depth, colour, 0, 0, interlace])
    for extra in before { bytes += extra }
    if idat { bytes += chunk("IDAT", [0x78, 0x01, 0x01, 0x05, 0x00, 0xFA, 0xFF, 0, 0, 0, 0, 0, 0x00, 0x05, 0x00, 0x01]) }
    bytes += chunk("IEND", [])
    return bytes
}

private func refusal(_ bytes: [UInt8], path: String = imagePath) -> ProductImageError? {
    do throws(ProductImageError) {
        _ = try ProductImage.validate(bytes, path: path)
        return nil
    } catch {
        return error
    }
}

@Suite struct ProductImageTests {
    @Test func acceptsATransparentPNGOfTheMinimumSize() throws {
        let image = try ProductImage.validate(png(), path: imagePath)
        #expect(image == ProductImage(path: imagePath, width: 540, height: 360))
    }

    @Test func acceptsTheExampleAppsImage() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../examples/images/lab-sensor.png").standardizedFileURL
        let bytes = [UInt8](try Data(contentsOf: file))
        let image = try ProductImage.validate(bytes, path: "/usr/share/accessoryd/images/sensor-logger/lab-sensor.png")
        #expect((image.width, image.height) == (540, 360))
        // The system tier's copy is the same file.
        let guest = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../System/guest/files/usr/share/accessoryd/images/sensor-logger/lab-sensor.png")
        #expect([UInt8](try Data(contentsOf: guest)) == bytes)
    }

    @Test func transparencyIsAnAlphaChannelOrATRNSChunk() {
        #expect(refusal(png(colour: 4)) == nil)
        #expect(refusal(png(colour: 2)) == .noTransparency(colourType: 2))
        #expect(refusal(png(depth: 16, colour: 0)) == .noTransparency(colourType: 0))
        #expect(refusal(png(colour: 2, before: [chunk("tRNS", [0, 0, 0, 0, 0, 0])])) == nil)
        #expect(refusal(png(colour: 3, before: [chunk("PLTE", [0, 0, 0]), chunk("tRNS", [0])])) == nil)
        #expect(refusal(png(colour: 3, before: [chunk("PLTE", [0, 0, 0])])) == .noTransparency(colourType: 3))
    }

    @Test func sizeLimits() {
        #expect(refusal(png(width: 539)) == .tooSmall(width: 539, height: 360))
        #expect(refusal(png(height: 359)) == .tooSmall(width: 540, height: 359))
        #expect(refusal(png(width: 4096, height: 4096)) == nil)
        #expect(refusal(png(width: 4097)) == .tooLarge(width: 4097, height: 360))
        let padded = png(before: [chunk("tEXt", [UInt8](repeating: 0x41, count: ProductImage.maximumBytes))])
        #expect(refusal(padded) == .tooManyBytes(padded.count))
    }

    @Test func damagedFilesAreRefusedByName() {
        var signature = png()
        signature[1] = 0x51
        #expect(refusal(signature)?.name == "not-png")
        #expect(refusal([])?.name == "not-png")

        var headerCRC = png()
        headerCRC[8 + 8 + 13] ^= 0xFF
        #expect(refusal(headerCRC) == .corruptChunk("IHDR"))

        var dataByte = png()
        dataByte[dataByte.count - 12 - 6] ^= 0x01   // inside IDAT
        #expect(refusal(dataByte) == .corruptChunk("IDAT"))

        #expect(refusal(Array(png().dropLast(4))) == .truncated)
        #expect(refusal(png(idat: false)) == .noImageData)
        #expect(refusal(png(depth: 3))?.name == "invalid-header")
        #expect(refusal(png(colour: 5))?.name == "invalid-header")
        #expect(refusal(png(interlace: 2))?.name == "invalid-header")
        #expect(refusal(png(colour: 3, before: [chunk("tRNS", [0])])) == .invalidHeader("colour type 3 without a PLTE chunk"))
        #expect(refusal(png(before: [chunk("IHDR", [UInt8](repeating: 0, count: 13))]))?.name == "invalid-header")

        // IDAT first: no header.
        let noHeader = Array(PNGHeader.signature) + chunk("IDAT", [0]) + chunk("IEND", [])
        #expect(refusal(noHeader) == .missingHeader)
        // A length that points past the end.
        var long = png()
        long[8 + 3] = 0xFF
        #expect(refusal(long) == .truncated)
    }

    @Test func everyPrefixOfAGoodFileIsRefused() {
        let good = png(before: [chunk("tEXt", Array("Title\u{0}Sensor".utf8))])
        for count in 0..<good.count {
            #expect(refusal(Array(good.prefix(count))) != nil, "prefix of \(count) bytes")
        }
    }

    @Test func thePathMustBeAPlainPNGInAnImageDirectory() {
        for path in [
            "/usr/share/accessoryd/images/acme/sensor.png", "/etc/accessoryd/images/sensor.png",
        ] {
            #expect(ProductImage.isAllowedPath(path), "\(path)")
        }
        for path in [
            "/tmp/sensor.png", "usr/share/accessoryd/images/sensor.png", "/usr/share/accessoryd/images/../../../etc/shadow.png",
            "/usr/share/accessoryd/images/./sensor.png", "/usr/share/accessoryd/images//sensor.png",
            "/usr/share/accessoryd/images/sensor.gif", "/usr/share/accessoryd/images/.png",
            "/usr/share/accessoryd/images/", "/usr/share/accessoryd/images/a sensor.png",
            "/usr/share/accessoryd/images/sensor\n.png", "/usr/share/accessoryd/imagesX/sensor.png",
        ] {
            #expect(!ProductImage.isAllowedPath(path), "\(path)")
            #expect(refusal(png(), path: path) == .outsideImageDirectories)
        }
    }
}

@Suite struct ManifestProductImageTests {
    private func manifest(_ images: [String]) -> ManifestFile {
        let text = """
            [App]
            Name=acme
            User=acme
            Supports=Bluetooth
            \(images.map { "ProductImage=\($0)" }.joined(separator: "\n"))
            [Bluetooth]
            ServiceUUIDs=180F
            """
        return ManifestFile(path: "/usr/share/accessoryd/apps.d/acme.conf", bytes: Array(text.utf8))
    }

    @Test func aGoodImageIsKeptAndABadOneRefusedWithFileAndKey() throws {
        let small = "/usr/share/accessoryd/images/acme/small.png"
        let gone = "/usr/share/accessoryd/images/acme/gone.png"
        let files = [imagePath: png(), small: png(width: 100, height: 100)]
        let catalog = AppManifestLoader.load(vendor: [manifest([small, imagePath, gone])], administrator: []) { path in
            files[path].map { .success($0) } ?? .failure(.missing)
        }
        let acme = try #require(catalog["acme"])
        #expect(acme.productImages == [imagePath])
        #expect(catalog.errors.isEmpty)
        #expect(catalog.imageRefusals == [
            ProductImageRefusal(manifest: "/usr/share/accessoryd/apps.d/acme.conf", image: small, error: .tooSmall(width: 100, height: 100)),
            ProductImageRefusal(manifest: "/usr/share/accessoryd/apps.d/acme.conf", image: gone, error: .missing),
        ])
        #expect(catalog.imageRefusals[0].description
            == "/usr/share/accessoryd/apps.d/acme.conf: [App] ProductImage=\(small) refused: 100×100 pixels; at least 540×360 are needed")
    }

    @Test func aPathOutsideTheImageDirectoriesRefusesTheManifest() {
        let catalog = AppManifestLoader.load(vendor: [manifest(["/home/acme/sensor.png"])], administrator: [])
        #expect(catalog.manifests.isEmpty)
        guard case .invalidValue(let section, let key, let value, _) = catalog.errors.first?.reason else {
            Issue.record("expected an invalid value, got \(catalog.errors)")
            return
        }
        #expect((section, key, value) == ("App", "ProductImage", "/home/acme/sensor.png"))
        #expect(catalog.errors.first?.line == 5)
    }

    @Test func displayItemsGetADeclaredImageOrTheFirst() throws {
        let other = "/usr/share/accessoryd/images/acme/other.png"
        let acme = AppManifest(app: "acme", user: "acme", productImages: [imagePath, other])
        #expect(try acme.productImage(for: nil) == imagePath)
        #expect(try acme.productImage(for: "") == imagePath)
        #expect(try acme.productImage(for: other) == other)
        #expect(throws: AccessorySetupError.invalidRequest(.undeclaredProductImage("/etc/passwd"))) {
            try acme.productImage(for: "/etc/passwd")
        }
        #expect(try AppManifest(app: "bare", user: "bare").productImage(for: nil) == nil)
    }
}
