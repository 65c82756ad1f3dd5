import AccessoryCore

/// An app's manifest in /usr/share/accessoryd/apps.d or /etc/accessoryd/apps.d.
let appManifestTarget = FuzzTarget(name: "app-manifest") { bytes in
    let file = ManifestFile(path: "/usr/share/accessoryd/apps.d/fuzz.conf", bytes: bytes)
    let catalog = AppManifestLoader.load(vendor: [file], administrator: [])
    expect(catalog.manifests.count + catalog.errors.count == 1, "one manifest file gave other than one manifest or one error")
    for manifest in catalog.manifests.values {
        // Admission of the empty descriptor exercises every rule against what the manifest allows.
        _ = manifest.violations(of: DiscoveryDescriptor())
    }
}
