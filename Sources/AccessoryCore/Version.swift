/// The release version, as the Debian package and `--version` show it.
public enum Version {
    public static let current = "0.1.0"
}
