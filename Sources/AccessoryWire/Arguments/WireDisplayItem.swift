import AccessoryCore
import AccessoryPlatform

/// `(ssa{ss}asas)`, a `ShowPicker` display item: name, product image path
/// (empty for none), descriptor, setup options, rename options.
public struct WireDisplayItem: WireRecord {
    public static let type = BusType.structure(.string, .string, .pairs, .strings, .strings)

    public var name: String
    public var productImage: String
    public var descriptor: [(key: String, value: String)]
    public var setupOptions: [String]
    public var renameOptions: [String]

    public init(name: String, productImage: String, descriptor: [(key: String, value: String)],
                setupOptions: [String], renameOptions: [String]) {
        self.name = name
        self.productImage = productImage
        self.descriptor = descriptor
        self.setupOptions = setupOptions
        self.renameOptions = renameOptions
    }

    /// What an app sends for `item`.
    public init(_ item: PickerDisplayItem) {
        self.init(name: item.name, productImage: item.productImagePath ?? "",
                  descriptor: DescriptorFields.fields(of: item.descriptor),
                  setupOptions: item.setupOptions.words,
                  renameOptions: item.renameOptions.contains(.ssid) ? [RenameOptionWords.ssid] : [])
    }

    public init(from reader: some ArgumentReader) throws(BusError) {
        name = try reader.string("a display item's name")
        productImage = try reader.string("a product image path")
        descriptor = try reader.pairs("a descriptor")
        setupOptions = try reader.strings("setup options")
        renameOptions = try reader.strings("rename options")
    }

    public func appendFields(to message: BusReply) {
        message.append(name).append(productImage).append(pairs: descriptor)
            .append(strings: setupOptions).append(strings: renameOptions)
    }
}

/// The words of rename options (`ASAccessoryRenameOptions`), in display
/// items and in `RenameAccessory`.
public enum RenameOptionWords {
    public static let ssid = "ssid"
}

extension PickerDisplayItem.SetupOptions {
    /// The words on the wire, in a fixed order.
    public var words: [String] { Self.names.filter { contains($0.option) }.map(\.name) }
}
