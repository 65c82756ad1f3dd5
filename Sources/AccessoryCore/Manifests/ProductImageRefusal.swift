/// A product image a manifest names whose file broke a rule: the image is
/// left out and its app loads without it (a picker then shows no picture).
public struct ProductImageRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The manifest file that names the image.
    public var manifest: String
    public var key: String { "ProductImage" }
    public var image: String
    public var error: ProductImageError

    public init(manifest: String, image: String, error: ProductImageError) {
        self.manifest = manifest
        self.image = image
        self.error = error
    }

    public var description: String { "\(manifest): [App] \(key)=\(image) refused: \(error)" }
}
