import Glibc

/// One fuzz target: a name for the command line and the corpus directory,
/// and what it does with one input. `run` must not keep state between inputs
/// that could make a crash depend on the inputs before it.
struct FuzzTarget: Sendable {
    let name: String
    let run: @Sendable ([UInt8]) -> Void
}

/// Stops the run the way libFuzzer records a crash (SIGABRT, the input saved)
/// when a property every decoder promises does not hold.
func expect(_ condition: Bool, _ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    guard !condition else { return }
    fatalError("invariant broken: \(what())", file: file, line: line)
}

/// A line on standard error, unbuffered (libFuzzer's own output goes there too).
func printError(_ line: String) {
    var text = line
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}
