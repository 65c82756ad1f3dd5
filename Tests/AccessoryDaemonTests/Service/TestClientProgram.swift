import Foundation
import TestSupport

extension BuiltPrograms {
    /// The tests' own client (Tests/TestClient): an app or picker agent in a process of its own.
    static var testClient: String {
        URL(fileURLWithPath: accessoryd).deletingLastPathComponent().appendingPathComponent("accessory-test-client").path
    }
}
