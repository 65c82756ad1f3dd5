import AccessoryCodecs
import AccessoryCore

/// What the daemon reads from files others write: its configuration's
/// key-file syntax, app manifests and product images, descriptor files and
/// fields, and the matching of descriptors against what the radios hear.
let configurationDecodeTargets: [DecodeTarget] = [
    DecodeTarget(name: "key-file") { bytes in
        outcome { try KeyFile(parsing: bytes, source: "fuzz.conf") }
    },
    DecodeTarget(name: "app-manifest") { bytes in
        let file = ManifestFile(path: "/usr/share/accessoryd/apps.d/fuzz.conf", bytes: bytes)
        let catalog = AppManifestLoader.load(vendor: [file], administrator: [])
        let admitted = catalog.manifests.values.map { CanonicalRendering.render($0.violations(of: DiscoveryDescriptor())) }
        return parts(["catalog": CanonicalRendering.render(catalog), "empty-descriptor": admitted.sorted().joined(separator: ", ")])
    },
    DecodeTarget(name: "product-image") { bytes in
        outcome { try ProductImage.validate(bytes, path: "/usr/share/accessoryd/images/fuzz/image.png") }
    },
    DecodeTarget(name: "descriptor-file") { bytes in
        do throws(KeyFileError) {
            let entries = try DescriptorFile.parse(bytes, source: "fuzz.descriptors")
            return "ok " + entries.map { entry in
                let fields = DescriptorFields.fields(of: entry.descriptor)
                return parts([
                    "entry": CanonicalRendering.render(entry),
                    "fields": CanonicalRendering.render(fields),
                    "again": outcome { try DescriptorFields.descriptor(from: fields) },
                    "violations": CanonicalRendering.render(entry.descriptor.violations),
                ])
            }.joined(separator: "; ")
        } catch {
            return "error " + CanonicalRendering.render(error)
        }
    },
    DecodeTarget(name: "descriptor-fields") { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        let pairs = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (key: String(parts[0]), value: parts.count > 1 ? String(parts[1]) : "")
        }
        let descriptor = Result { try DescriptorFields.descriptor(from: pairs) }
        return parts([
            "descriptor": outcome { try descriptor.get() },
            "fields": outcome { DescriptorFields.fields(of: try descriptor.get()) },
            "violations": outcome { try descriptor.get().violations },
        ])
    },
    DecodeTarget(name: "matching") { bytes in
        guard let separator = bytes.firstIndex(of: 0xFF) else { return "no separator" }
        let entries: [DescriptorFile.Entry]
        do throws(KeyFileError) {
            entries = try DescriptorFile.parse(Array(bytes[..<separator]), source: "fuzz.descriptors")
        } catch {
            return "error " + CanonicalRendering.render(error)
        }
        var index = MatchingIndex()
        var inserted: [String] = []
        for entry in entries {
            inserted.append(outcome { try index.insert(entry.descriptor, id: entry.id, app: entry.app) })
        }
        let heard = bytes[(separator + 1)...]
        let rssi = heard.first.map { Int8(bitPattern: $0) }
        let data = Array(heard.dropFirst())
        let device = BluetoothDeviceIdentifier(address: BluetoothAddress("C0:FF:EE:00:00:01")!, addressType: .random)
        let advertisement = Advertisement(LEAdvertisingReport(eventType: .connectableUndirected, device: device, data: data, rssi: rssi))
        var network = "none"
        var networkByScan = "none"
        if let ssid = SSID(bytes: data.prefix(SSID.maximumLength)) {
            let bss = WiFiNetwork(bssid: BSSID(rawValue: 0x0200_0000_0100)!, ssid: ssid, frequencyMHz: 2412, signalDBm: rssi.map(Int.init))
            network = CanonicalRendering.render(index.matches(bss))
            networkByScan = CanonicalRendering.render(index.matchesByScanningAll(bss))
        }
        return parts([
            "inserted": inserted.joined(separator: ", "),
            "advertisement": CanonicalRendering.render(index.matches(advertisement)),
            "advertisement-scan": CanonicalRendering.render(index.matchesByScanningAll(advertisement)),
            "network": network,
            "network-scan": networkByScan,
        ])
    },
]
