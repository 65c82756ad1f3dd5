/// A product image an app's package installs and its manifest names
/// (`[App] ProductImage=`), for pickers to show next to a display item.
/// The rules follow AccessorySetupKit's: a PNG with a transparent
/// background, at least 540×360 pixels, which pickers fit in a 180×120 box.
public struct ProductImage: Hashable, Sendable {
    /// Where images may be: the vendor's (packages) and the administrator's.
    /// A picker reads the file itself, so a manifest must not be able to point it anywhere else.
    public static let directories = ["/usr/share/accessoryd/images/", "/etc/accessoryd/images/"]
    public static let minimumWidth: UInt32 = 540
    public static let minimumHeight: UInt32 = 360
    /// A picker decodes the whole image; this keeps that cheap on a phone.
    public static let maximumSide: UInt32 = 4096
    public static let maximumBytes = 1 << 20

    public var path: String
    public var width: UInt32
    public var height: UInt32

    public init(path: String, width: UInt32, height: UInt32) {
        self.path = path
        self.width = width
        self.height = height
    }

    /// Whether `path` is a plain absolute path to a `.png` file in one of
    /// `directories`: no `.` or `..` component, no empty one, printable ASCII only.
    public static func isAllowedPath(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        guard bytes.count <= 255, path.hasSuffix(".png"),
            bytes.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\\") }),
            let directory = directories.first(where: { path.hasPrefix($0) })
        else { return false }
        let rest = path.dropFirst(directory.count).split(separator: "/", omittingEmptySubsequences: false)
        return !rest.isEmpty && rest.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
            && rest.last.map { $0.count > ".png".count } == true
    }

    /// Checks the file's bytes against the rules. Pure: the caller reads the file.
    public static func validate(_ bytes: [UInt8], path: String) throws(ProductImageError) -> ProductImage {
        guard isAllowedPath(path) else { throw .outsideImageDirectories }
        guard bytes.count <= maximumBytes else { throw .tooManyBytes(bytes.count) }
        let header = try PNGHeader(parsing: bytes)
        guard header.width >= minimumWidth, header.height >= minimumHeight else {
            throw .tooSmall(width: header.width, height: header.height)
        }
        guard header.width <= maximumSide, header.height <= maximumSide else {
            throw .tooLarge(width: header.width, height: header.height)
        }
        guard header.hasTransparency else { throw .noTransparency(colourType: header.colourType) }
        return ProductImage(path: path, width: header.width, height: header.height)
    }
}
