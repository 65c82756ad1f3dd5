/// What a product image's rules need from a PNG file: its `IHDR` and whether
/// it has a `tRNS` chunk. Walks every chunk to `IEND`, checking each one's
/// length and CRC, but decodes no pixel data.
public struct PNGHeader: Hashable, Sendable {
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    public var width: UInt32
    public var height: UInt32
    public var bitDepth: UInt8
    public var colourType: UInt8
    public var hasTransparencyChunk: Bool

    /// Colour types 4 (grey with alpha) and 6 (RGB with alpha) carry alpha;
    /// the others may have a `tRNS` chunk instead.
    public var hasTransparency: Bool { colourType == 4 || colourType == 6 || hasTransparencyChunk }

    public init(parsing bytes: [UInt8]) throws(ProductImageError) {
        guard bytes.count >= 8, Array(bytes[0..<8]) == Self.signature else { throw .notPNG }
        var offset = 8
        var header: (width: UInt32, height: UInt32, depth: UInt8, colour: UInt8)?
        var transparency = false
        var imageData = false
        var palette = false
        while true {
            guard bytes.count - offset >= 12 else { throw .truncated }
            let length = Self.uint32(bytes, offset)
            guard length <= 0x7FFF_FFFF, Int(length) <= bytes.count - offset - 12 else { throw .truncated }
            let type = bytes[(offset + 4)..<(offset + 8)]
            let data = bytes[(offset + 8)..<(offset + 8 + Int(length))]
            let name = String(decoding: type.map { (0x41...0x5A).contains($0 & 0xDF) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
            guard CRC32.checksum(bytes[(offset + 4)..<(offset + 8 + Int(length))]) == Self.uint32(bytes, offset + 8 + Int(length)) else {
                throw .corruptChunk(name)
            }
            offset += 12 + Int(length)
            if header == nil {
                guard name == "IHDR", length == 13 else { throw .missingHeader }
                header = try Self.header(Array(data))
                continue
            }
            switch name {
            case "IHDR": throw .invalidHeader("a second IHDR chunk")
            case "PLTE": palette = true
            case "tRNS": transparency = true
            case "IDAT": imageData = true
            case "IEND":
                guard imageData else { throw .noImageData }
                guard let header else { throw .missingHeader }
                if header.colour == 3, !palette { throw .invalidHeader("colour type 3 without a PLTE chunk") }
                width = header.width
                height = header.height
                bitDepth = header.depth
                colourType = header.colour
                hasTransparencyChunk = transparency
                return
            default: break
            }
        }
    }

    private static func header(_ data: [UInt8]) throws(ProductImageError) -> (width: UInt32, height: UInt32, depth: UInt8, colour: UInt8) {
        let width = uint32(data, 0)
        let height = uint32(data, 4)
        let depth = data[8]
        let colour = data[9]
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            throw .invalidHeader("width and height must be 1 to 2^31-1")
        }
        let depths: [UInt8]
        switch colour {
        case 0: depths = [1, 2, 4, 8, 16]
        case 3: depths = [1, 2, 4, 8]
        case 2, 4, 6: depths = [8, 16]
        default: throw .invalidHeader("colour type \(colour)")
        }
        guard depths.contains(depth) else { throw .invalidHeader("bit depth \(depth) with colour type \(colour)") }
        guard data[10] == 0, data[11] == 0 else { throw .invalidHeader("compression or filter method other than 0") }
        guard data[12] <= 1 else { throw .invalidHeader("interlace method \(data[12])") }
        return (width, height, depth, colour)
    }

    private static func uint32(_ bytes: some RandomAccessCollection<UInt8>, _ offset: Int) -> UInt32 {
        let start = bytes.index(bytes.startIndex, offsetBy: offset)
        return bytes[start..<bytes.index(start, offsetBy: 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
