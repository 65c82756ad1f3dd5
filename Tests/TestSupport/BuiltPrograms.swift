import Foundation

/// The programs this build made, next to the test runner: what the process
/// tests of every target run.
public enum BuiltPrograms {
    /// The multi-call accessoryd.
    public static var accessoryd: String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("accessoryd").path
    }

    /// accessoryctl as the package installs it: a link with that name to the multi-call accessoryd.
    public static let accessoryctl: String = {
        let directory = URL(fileURLWithPath: accessoryd).deletingLastPathComponent().appendingPathComponent("multi-call")
        let link = directory.appendingPathComponent("accessoryctl").path
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil {
            try? FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../accessoryd")
        }
        return link
    }()
}
