import AccessoryCore

/// A product image an app's package installs (`[App] ProductImage=`): any bytes
/// give an image that keeps the rules, or a named refusal.
let productImageTarget = FuzzTarget(name: "product-image") { bytes in
    do throws(ProductImageError) {
        let image = try ProductImage.validate(bytes, path: "/usr/share/accessoryd/images/fuzz/image.png")
        expect(image.width >= ProductImage.minimumWidth && image.height >= ProductImage.minimumHeight,
               "an accepted image smaller than the minimum")
        expect(image.width <= ProductImage.maximumSide && image.height <= ProductImage.maximumSide,
               "an accepted image larger than the maximum")
        expect(bytes.count <= ProductImage.maximumBytes, "an accepted image over the byte cap")
    } catch {
        expect(!error.name.isEmpty, "a refusal without a name")
    }
}
