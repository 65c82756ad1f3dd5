import Glibc

/// `accessory-decode-check DIR...`: every file of each fuzz corpus directory
/// (Tests/Fuzz/corpus/TARGET, or the corpus root for all of them) through
/// the decoders of TARGET, one line per input on standard output:
/// `TARGET FILE RENDERING`. The lines depend on the decoders alone, so an
/// arm64 build must print exactly what the amd64 build prints; a difference
/// is a miscompile (or an architecture dependence) in a parser.
@main
enum DecodeCheck {
    /// Longer renderings are printed as their length, an FNV-1a 64 digest and
    /// their start: still compared in full, and a diff stays readable.
    static let longestLine = 2000

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard !arguments.isEmpty, !arguments.contains(where: { $0.hasPrefix("-") }) else {
            printError("usage: accessory-decode-check CORPUS-DIR...  (Tests/Fuzz/corpus or its TARGET directories)\n")
            exit(2)
        }
        var directories: [String] = []
        do throws(CorpusFiles.Failure) {
            for argument in arguments {
                let path = argument.hasSuffix("/") && argument.count > 1 ? String(argument.dropLast()) : argument
                guard CorpusFiles.isDirectory(path) else { throw CorpusFiles.Failure(description: "no directory \(path)") }
                if decodeTarget(for: path) != nil || !hasTargetDirectories(path) {
                    directories.append(path)
                } else {
                    directories += try CorpusFiles.names(in: path, directories: true).map { path + "/" + $0 }
                }
            }
            var inputs = 0
            var targets = 0
            var skipped: [String] = []
            for directory in directories {
                guard let target = decodeTarget(for: directory) else {
                    skipped.append(baseName(directory))
                    continue
                }
                targets += 1
                for name in try CorpusFiles.names(in: directory, directories: false) {
                    let bytes = try CorpusFiles.contents(of: directory + "/" + name)
                    printLine(target.name + " " + printable(name) + " " + bounded(target.decode(bytes)))
                    inputs += 1
                }
            }
            let skippedText = skipped.isEmpty ? "" : " (no decoder here for: \(skipped.joined(separator: ", ")))"
            printError("accessory-decode-check: \(targets) targets, \(inputs) inputs\(skippedText)\n")
        } catch {
            printError("accessory-decode-check: \(error)\n")
            exit(1)
        }
    }

    static func decodeTarget(for directory: String) -> DecodeTarget? {
        let name = baseName(directory)
        return decodeTargets.first { $0.name == name }
    }

    static func hasTargetDirectories(_ path: String) -> Bool {
        decodeTargets.contains { CorpusFiles.isDirectory(path + "/" + $0.name) }
    }

    static func baseName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }

    static func bounded(_ rendering: String) -> String {
        let utf8 = Array(rendering.utf8)
        guard utf8.count > longestLine else { return rendering }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let start = String(decoding: utf8.prefix(200), as: UTF8.self)
        return "long \(utf8.count) bytes fnv1a64 \(String(hash, radix: 16)) " + start + "…"
    }

    /// A file name as it is, unless it holds control or non-ASCII bytes: then quoted and escaped.
    static func printable(_ name: String) -> String {
        name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F } ? name : name.debugDescription
    }

    static func printLine(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(1, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    exit(1)
                }
                offset += written
            }
        }
    }

    static func printError(_ line: String) {
        var text = line
        text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}
