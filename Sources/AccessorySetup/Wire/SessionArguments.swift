import AccessoryCore
import AccessoryPlatform
import AccessoryWire

/// The arguments of `org.accessoryagent.Session1`'s methods, written with
/// the contract's encoders (AccessoryWire), from the library's values.
extension BusReply {
    /// `ShowPicker`'s items.
    @discardableResult
    func append(items: [PickerDisplayItem]) -> Self { append(records: items.map(WireDisplayItem.init)) }

    /// `ShowPicker`'s settings.
    @discardableResult
    func append(settings: PickerDisplaySettings) -> Self { append(pairs: WirePickerSettings.pairs(settings)) }

    /// `UpdatePicker`'s candidates shown.
    @discardableResult
    func append(shown: [DiscoveredDisplayItem]) -> Self {
        append(records: shown.map {
            WireShownCandidate(candidate: $0.candidate, name: $0.name, productImage: $0.productImagePath ?? "")
        })
    }

    /// `FinishAuthorization`'s settings.
    @discardableResult
    func append(accessorySettings settings: AccessorySettings) -> Self {
        append(pairs: WireAuthorizationSettings.pairs(ssid: settings.ssid, bridgingIdentifier: settings.bridgingIdentifier))
    }

    /// `UpdateAuthorization`'s descriptor.
    @discardableResult
    func append(descriptor: DiscoveryDescriptor) -> Self { append(pairs: DescriptorFields.fields(of: descriptor)) }

    /// `RenameAccessory`'s name and options.
    @discardableResult
    func append(renaming name: String, options: AccessoryRenameOptions) -> Self {
        append(name).append(strings: options.words)
    }

    /// `Migrate`'s items.
    @discardableResult
    func append(migrationItems items: [MigrationDisplayItem]) -> Self {
        append(records: items.map {
            WireMigrationItem(name: $0.name, bluetoothAddress: $0.bluetoothIdentifier.map(\.parseableText) ?? "",
                              ssid: $0.ssid.map { SSIDText.escaped($0.bytes) } ?? "",
                              descriptor: DescriptorFields.fields(of: $0.descriptor))
        })
    }
}

extension AccessoryRenameOptions {
    /// `RenameAccessory`'s options.
    var words: [String] { contains(.ssid) ? [RenameOptionWords.ssid] : [] }
}
