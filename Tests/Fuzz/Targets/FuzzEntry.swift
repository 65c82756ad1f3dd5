import CLibFuzzer
import Glibc

/// `accessory-fuzz TARGET [libFuzzer options and corpus directories]`.
///
/// SwiftPM links an executable target's own `main`, so this is the entry,
/// not libFuzzer's: it picks the target, then hands the remaining arguments
/// to libFuzzer's driver. The choice travels in ACCESSORY_FUZZ_TARGET, which
/// processes libFuzzer forks (`-jobs`, `-fork`) inherit with their arguments.
@main
enum AccessoryFuzz {
    static func main() {
        var arguments = CommandLine.arguments
        let names = fuzzTargets.map(\.name).joined(separator: " ")
        if arguments.count > 1, !arguments[1].hasPrefix("-") {
            setenv(targetVariable, arguments.remove(at: 1), 1)
        }
        guard let name = getenv(targetVariable).map({ String(cString: $0) }) else {
            printError("usage: accessory-fuzz TARGET [libFuzzer options] [corpus...]; targets: \(names)\n")
            exit(2)
        }
        guard let target = fuzzTargets.first(where: { $0.name == name }) else {
            printError("accessory-fuzz: no target \(name); there are: \(names)\n")
            exit(2)
        }
        selected = target
        exit(runLibFuzzer(arguments))
    }
}

private let targetVariable = "ACCESSORY_FUZZ_TARGET"
nonisolated(unsafe) private var selected: FuzzTarget?

/// One input. The runtime `-sanitize=fuzzer` links refers to this name (the
/// link fails without it), though the driver below is handed it directly.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    selected?.run(bytes)
    return 0
}

/// libFuzzer's driver with these arguments; it returns only when the run ends.
private func runLibFuzzer(_ arguments: [String]) -> Int32 {
    // libFuzzer keeps argv for the whole run and for its forks: never freed.
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = .allocate(capacity: arguments.count + 1)
    for (index, argument) in arguments.enumerated() { argv![index] = strdup(argument) }
    argv![arguments.count] = nil
    var argc = Int32(arguments.count)
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in testOneInput(data, size) }
}
