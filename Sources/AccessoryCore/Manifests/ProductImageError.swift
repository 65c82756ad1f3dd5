/// Why a product image named by a manifest was refused; each case names the
/// one rule the file broke, so its author knows what to change.
public enum ProductImageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not an absolute, plain path to a `.png` file in one of `ProductImage.directories`.
    case outsideImageDirectories
    case missing
    case unreadable(String)
    /// More bytes than `ProductImage.maximumBytes`.
    case tooManyBytes(Int)
    /// The first eight bytes are not PNG's signature.
    case notPNG
    /// A chunk runs past the end of the file, or the file ends before `IEND`.
    case truncated
    /// A chunk whose CRC does not match its type and data.
    case corruptChunk(String)
    /// The first chunk is not a 13-byte `IHDR`.
    case missingHeader
    /// An `IHDR` field PNG does not allow (bit depth, colour type, method).
    case invalidHeader(String)
    /// No `IDAT` chunk before `IEND`.
    case noImageData
    case tooSmall(width: UInt32, height: UInt32)
    case tooLarge(width: UInt32, height: UInt32)
    /// Neither an alpha channel (colour types 4 and 6) nor a `tRNS` chunk.
    case noTransparency(colourType: UInt8)

    /// A short fixed name for the journal's `IMAGE_ERROR=` field and for tests.
    public var name: String {
        switch self {
        case .outsideImageDirectories: "outside-image-directories"
        case .missing: "missing"
        case .unreadable: "unreadable"
        case .tooManyBytes: "too-many-bytes"
        case .notPNG: "not-png"
        case .truncated: "truncated"
        case .corruptChunk: "corrupt-chunk"
        case .missingHeader: "missing-header"
        case .invalidHeader: "invalid-header"
        case .noImageData: "no-image-data"
        case .tooSmall: "too-small"
        case .tooLarge: "too-large"
        case .noTransparency: "no-transparency"
        }
    }

    public var description: String {
        switch self {
        case .outsideImageDirectories:
            "not a .png file in \(ProductImage.directories.joined(separator: " or "))"
        case .missing: "no such file"
        case .unreadable(let why): "cannot be read: \(why)"
        case .tooManyBytes(let count): "\(count) bytes; at most \(ProductImage.maximumBytes) are allowed"
        case .notPNG: "not a PNG file (its first 8 bytes are not PNG's signature)"
        case .truncated: "truncated: a chunk runs past the end, or IEND is missing"
        case .corruptChunk(let type): "chunk \(type) fails its CRC"
        case .missingHeader: "the first chunk is not a 13-byte IHDR"
        case .invalidHeader(let why): "invalid IHDR: \(why)"
        case .noImageData: "no IDAT chunk"
        case .tooSmall(let width, let height):
            "\(width)×\(height) pixels; at least \(ProductImage.minimumWidth)×\(ProductImage.minimumHeight) are needed"
        case .tooLarge(let width, let height):
            "\(width)×\(height) pixels; at most \(ProductImage.maximumSide) on a side are allowed"
        case .noTransparency(let colourType):
            "no transparent background: colour type \(colourType) has no alpha and there is no tRNS chunk"
        }
    }
}
