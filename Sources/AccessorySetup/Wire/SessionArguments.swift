import AccessoryCore
import AccessoryPlatform

/// The arguments of `org.accessoryagent.Session1`'s methods, written in the
/// signatures of the D-Bus API contract.
extension BusReply {
    /// `a(ssa{ss}asas)`: name, product image path (empty for none),
    /// descriptor, setup options, rename options.
    @discardableResult
    func append(items: [PickerDisplayItem]) -> Self {
        container("a", "(ssa{ss}asas)") { array in
            for item in items {
                array.container("r", "ssa{ss}asas") { entry in
                    entry.append(item.name)
                        .append(item.productImagePath ?? "")
                        .append(pairs: DescriptorFields.fields(of: item.descriptor))
                        .append(strings: item.setupOptions.words)
                        .append(strings: item.renameOptions.words)
                }
            }
        }
    }

    /// `a{ss}`: `DiscoveryTimeout`, `FilterDiscoveryResults`.
    @discardableResult
    func append(settings: PickerDisplaySettings) -> Self {
        append(pairs: [
            ("DiscoveryTimeout", settings.discoveryTimeout.text),
            ("FilterDiscoveryResults", settings.filterDiscoveryResults ? "true" : "false"),
        ])
    }

    /// `a(uss)`: candidate number, display name, product image path.
    @discardableResult
    func append(shown: [DiscoveredDisplayItem]) -> Self {
        container("a", "(uss)") { array in
            for item in shown {
                array.container("r", "uss") { $0.append(item.candidate).append(item.name).append(item.productImagePath ?? "") }
            }
        }
    }

    /// `a{ss}`: `SSID`, `BridgingIdentifier`, each only when set.
    @discardableResult
    func append(accessorySettings settings: AccessorySettings) -> Self {
        var pairs: [(key: String, value: String)] = []
        if let ssid = settings.ssid { pairs.append(("SSID", SSIDText.escaped(ssid.bytes))) }
        if let bridging = settings.bridgingIdentifier { pairs.append(("BridgingIdentifier", bridging)) }
        return append(pairs: pairs)
    }

    /// `a(sssa{ss})`: name, Bluetooth address (`…/random` for a random one;
    /// empty for none), SSID (empty for none), descriptor.
    @discardableResult
    func append(migrationItems items: [MigrationDisplayItem]) -> Self {
        container("a", "(sssa{ss})") { array in
            for item in items {
                array.container("r", "sssa{ss}") { entry in
                    entry.append(item.name)
                    entry.append(item.bluetoothIdentifier.map(\.parseableText) ?? "")
                    entry.append(item.ssid.map { SSIDText.escaped($0.bytes) } ?? "")
                    entry.append(pairs: DescriptorFields.fields(of: item.descriptor))
                }
            }
        }
    }
}

extension PickerDisplayItem.SetupOptions {
    var words: [String] {
        [(Self.rename, "rename"), (.confirmAuthorization, "confirmAuthorization"), (.finishInApp, "finishInApp")]
            .filter { contains($0.0) }.map(\.1)
    }
}

extension AccessoryRenameOptions {
    var words: [String] { contains(.ssid) ? ["ssid"] : [] }
}
