import Foundation
import Glibc

/// A fresh, uniquely named directory under the system's temporary directory
/// (`ScratchDirectory("grants")` is /tmp/grants-XXXXXX), removed with
/// everything in it when its owner lets go of it. Tests run again and again,
/// on developers' machines and on CI: what each run leaves in /tmp piles up.
///
/// Hold it as long as the directory is used: in a suite's stored property
/// (Swift Testing makes a suite instance per test and drops it after), in a
/// harness's, or in a local of the test. Stop any process still working in it
/// before it goes.
public final class ScratchDirectory: Sendable {
    /// The directory's absolute path.
    public let path: String

    /// Makes the directory, named `prefix-` and six random characters. It is
    /// 0755, so a test's children running as other users (setpriv) can read
    /// what the test writes there.
    public init(_ prefix: String) throws {
        let base = FileManager.default.temporaryDirectory.path
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        path = String(cString: made)
        guard chmod(path, 0o755) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    /// The path of `name` inside the directory ("conf.d/10-early.conf" is fine).
    public func path(_ name: String) -> String {
        path + "/" + name
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
