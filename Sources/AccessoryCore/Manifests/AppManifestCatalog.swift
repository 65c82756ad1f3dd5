/// The apps the agent knows, as loaded from the manifest directories, and the
/// files it had to refuse.
public struct AppManifestCatalog: Sendable {
    public var manifests: [AppID: AppManifest]
    /// One per refused file, each with its file, line and reason.
    public var errors: [KeyFileError]
    /// Apps an administrator switched off with an empty file of the same name in /etc.
    public var masked: Set<AppID>
    /// Product images left out; their apps loaded without them.
    public var imageRefusals: [ProductImageRefusal]

    public init(manifests: [AppID: AppManifest] = [:], errors: [KeyFileError] = [], masked: Set<AppID> = [],
                imageRefusals: [ProductImageRefusal] = []) {
        self.manifests = manifests
        self.errors = errors
        self.masked = masked
        self.imageRefusals = imageRefusals
    }

    public subscript(app: AppID) -> AppManifest? { manifests[app] }

    /// The manifest of the app a caller belongs to: the one naming its systemd
    /// unit, else the one naming its user and no unit (a manifest that names a
    /// unit admits only callers in it). Nil when none does, or when several do
    /// and the caller cannot be told apart.
    public func manifest(forUser user: String?, unit: String?) -> AppManifest? {
        if let unit {
            let byUnit = manifests.values.filter { $0.unit == unit }
            if byUnit.count == 1 { return byUnit[0] }
            if byUnit.count > 1 { return nil }
        }
        guard let user else { return nil }
        let byUser = manifests.values.filter { $0.user == user && ($0.unit == nil || $0.unit == unit) }
        return byUser.count == 1 ? byUser[0] : nil
    }
}
