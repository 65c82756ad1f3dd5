/// The `[Section]` / `Key=Value` syntax of systemd unit files, which the
/// daemon's configuration and the app manifests share, so that an
/// administrator reads and writes both like any other file under /etc.
///
/// This is only the syntax: which sections and keys exist, and what their
/// values mean, is for the reader of each kind of file to decide.
public struct KeyFile: Sendable {
    public struct Entry: Hashable, Sendable {
        public var section: String
        public var key: String
        public var value: String
        /// 1-based line number in the file.
        public var line: Int
    }

    /// Where the file came from, for error messages.
    public let source: String
    /// Every assignment, in file order.
    public let entries: [Entry]
    /// Every section header, in file order (a section may have no entries).
    /// Read from `sectionHeaders`: a list of its own cost a file of many
    /// sections an array built and freed for the few readers that ask.
    public var sections: [String] { sectionHeaders.map(\.name) }
    /// The same headers with their line numbers, for errors about a section.
    public let sectionHeaders: [SectionHeader]

    public struct SectionHeader: Hashable, Sendable {
        public var name: String
        /// 1-based line number in the file.
        public var line: Int
    }

    /// Parses the file's bytes. Comment lines start with `#` or `;`; blank
    /// lines are ignored; a line ending in `\` does not continue (kept simple
    /// on purpose: no value here needs it).
    public init(parsing bytes: some Collection<UInt8>, source: String) throws(KeyFileError) {
        self.source = source
        guard var text = String(validating: bytes, as: UTF8.self) else {
            throw KeyFileError(source: source, line: nil, reason: .notUTF8)
        }
        // Lines of ASCII are read as bytes, not Characters: grapheme breaking
        // cost ~160,000 instructions per descriptor of a `--descriptors` file.
        // Each ASCII byte is a Character of its own but CR LF, so the bytes
        // read as the Characters did; a line with anything else (a combining
        // mark after `=` or `[` changes the Character) is read as Characters.
        // A line ends at a line feed that does not follow a carriage return:
        // where a Character reading splits too.
        var entries: [Entry] = []
        var headers: [SectionHeader] = []
        var section: String?
        var lineNumber = 0
        var failure: KeyFileError?
        text.withUTF8 { utf8 in
            let all = UnsafeRawBufferPointer(utf8)
            var start = 0
            // Every failure breaks out of the loop as it is set.
            while start <= all.count {
                // One pass over the line finds its end, whether it is all
                // ASCII, and its first `=`: three passes cost ~1,000
                // instructions a descriptor (callgrind, issue 25).
                var end = start
                var octetsOr: UInt8 = 0
                var firstEquals: Int?
                while end < all.count {
                    let octet = all[end]
                    if octet == Self.lineFeed, end == start || all[end - 1] != Self.carriageReturn { break }
                    octetsOr |= octet
                    if octet == UInt8(ascii: "="), firstEquals == nil { firstEquals = end }
                    end += 1
                }
                lineNumber += 1
                let raw = start..<end
                start = end + 1
                // Written into the String's own storage: a short ASCII one is then taken
                // without the validation `String(decoding:as:)` repeats, ~150 instructions
                // a string (callgrind, issue 25). Anything else is validated (and repaired) alike.
                func text(_ range: Range<Int>) -> String {
                    String(unsafeUninitializedCapacity: range.count) { storage in
                        UnsafeMutableRawBufferPointer(storage).copyMemory(from: UnsafeRawBufferPointer(rebasing: all[range]))
                        return range.count
                    }
                }
                guard octetsOr < 0x80 else {
                    do throws(KeyFileError) {
                        try Self.readLine(Substring(text(raw)), number: lineNumber, source: source, section: &section,
                                          entries: &entries, headers: &headers)
                    } catch {
                        failure = error
                        break
                    }
                    continue
                }
                let line = Self.trimmed(all, raw)
                if line.isEmpty || all[line.lowerBound] == UInt8(ascii: "#") || all[line.lowerBound] == UInt8(ascii: ";") { continue }
                if all[line.lowerBound] == UInt8(ascii: "[") {
                    guard all[line.upperBound - 1] == UInt8(ascii: "]"), line.count > 2,
                        (line.lowerBound + 1..<line.upperBound - 1).allSatisfy({ Self.isSectionByte(all[$0]) })
                    else {
                        failure = KeyFileError(source: source, line: lineNumber, reason: .malformedSectionHeader(text(line)))
                        break
                    }
                    let header = text(line.lowerBound + 1..<line.upperBound - 1)
                    section = header
                    headers.append(SectionHeader(name: header, line: lineNumber))
                    continue
                }
                // Trimming takes no `=`, so the line's first is the raw line's.
                guard let equals = firstEquals else {
                    failure = KeyFileError(source: source, line: lineNumber, reason: .missingEquals(text(line)))
                    break
                }
                let keyRange = Self.trimmed(all, line.lowerBound..<equals)
                let key = text(keyRange)
                let value = text(Self.trimmed(all, equals + 1..<line.upperBound))
                guard !keyRange.isEmpty, keyRange.allSatisfy({ Self.isKeyByte(all[$0]) }) else {
                    failure = KeyFileError(source: source, line: lineNumber, reason: .malformedKey(key))
                    break
                }
                guard let section else {
                    failure = KeyFileError(source: source, line: lineNumber, reason: .assignmentOutsideSection(key))
                    break
                }
                entries.append(Entry(section: section, key: key, value: value, line: lineNumber))
            }
        }
        if let failure { throw failure }
        self.entries = entries
        self.sectionHeaders = headers
    }

    /// One line read as Characters, as every line was before: for a line that is not all ASCII.
    private static func readLine(
        _ rawLine: Substring, number lineNumber: Int, source: String, section: inout String?, entries: inout [Entry],
        headers: inout [SectionHeader]
    ) throws(KeyFileError) {
        let line = rawLine.trimmingASCIIWhitespace()
        if line.isEmpty || line.first == "#" || line.first == ";" { return }
        if line.first == "[" {
            guard line.last == "]", line.count > 2 else {
                throw KeyFileError(source: source, line: lineNumber, reason: .malformedSectionHeader(String(line)))
            }
            let name = String(line.dropFirst().dropLast())
            guard name.allSatisfy(Self.isSectionCharacter) else {
                throw KeyFileError(source: source, line: lineNumber, reason: .malformedSectionHeader(String(line)))
            }
            section = name
            headers.append(SectionHeader(name: name, line: lineNumber))
            return
        }
        guard let equals = line.firstIndex(of: "=") else {
            throw KeyFileError(source: source, line: lineNumber, reason: .missingEquals(String(line)))
        }
        let key = String(line[..<equals].trimmingASCIIWhitespace())
        let value = String(line[line.index(after: equals)...].trimmingASCIIWhitespace())
        guard !key.isEmpty, key.allSatisfy(Self.isKeyCharacter) else {
            throw KeyFileError(source: source, line: lineNumber, reason: .malformedKey(key))
        }
        guard let section else {
            throw KeyFileError(source: source, line: lineNumber, reason: .assignmentOutsideSection(key))
        }
        entries.append(Entry(section: section, key: key, value: value, line: lineNumber))
    }

    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    /// `range` without the spaces, tabs and carriage returns at either end,
    /// as `trimmingASCIIWhitespace` trims Characters: a carriage return
    /// before a line feed is one Character with it, and stays.
    private static func trimmed(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Range<Int> {
        func isSpace(_ position: Int) -> Bool {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"): true
            case carriageReturn: position + 1 >= range.upperBound || bytes[position + 1] != lineFeed
            default: false
            }
        }
        var lower = range.lowerBound
        while lower < range.upperBound, isSpace(lower) { lower += 1 }
        var upper = range.upperBound
        while upper > lower, isSpace(upper - 1) { upper -= 1 }
        return lower..<upper
    }

    /// A byte that may be in a key: what `isKeyCharacter` allows, all ASCII.
    static func isKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// A byte that may be in a section name: what `isSectionCharacter` allows.
    static func isSectionByte(_ byte: UInt8) -> Bool {
        isKeyByte(byte) || byte == UInt8(ascii: " ") || byte == UInt8(ascii: ":")
    }

    static func isKeyCharacter(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || c == "_" || c == "-" || c == ".")
    }

    static func isSectionCharacter(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || c == "_" || c == "-" || c == "." || c == " " || c == ":")
    }
}

/// A file that is not valid `KeyFile` syntax, or whose content a reader refused.
/// Says where (file and line) and why, in the form `file:line: reason`.
public struct KeyFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        case notUTF8
        case malformedSectionHeader(String)
        case missingEquals(String)
        case malformedKey(String)
        case assignmentOutsideSection(String)
        /// A key the reader does not know in that section.
        case unknownKey(section: String, key: String)
        /// A section the reader does not know.
        case unknownSection(String)
        /// A known key whose value is not of its type or not in its range.
        case invalidValue(section: String, key: String, value: String, expected: String)
        /// A key given twice where only one value makes sense.
        case duplicateKey(section: String, key: String)
        /// A key the reader needs but the file lacks.
        case missingKey(section: String, key: String)
        /// A section whose keys are each fine but do not make sense together.
        case invalidSection(section: String, reason: String)
    }

    public var source: String
    public var line: Int?
    public var reason: Reason

    public init(source: String, line: Int?, reason: Reason) {
        self.source = source
        self.line = line
        self.reason = reason
    }

    public var description: String {
        let place = line.map { "\(source):\($0)" } ?? source
        switch reason {
        case .notUTF8: return "\(place): not valid UTF-8"
        case .malformedSectionHeader(let text): return "\(place): malformed section header '\(text)'"
        case .missingEquals(let text): return "\(place): expected Key=Value, got '\(text)'"
        case .malformedKey(let key): return "\(place): malformed key '\(key)'"
        case .assignmentOutsideSection(let key): return "\(place): key '\(key)' before any [Section]"
        case .unknownKey(let section, let key): return "\(place): unknown key '\(key)' in [\(section)]"
        case .unknownSection(let section): return "\(place): unknown section [\(section)]"
        case .invalidValue(let section, let key, let value, let expected):
            return "\(place): invalid value '\(value)' for key '\(key)' in [\(section)]: expected \(expected)"
        case .duplicateKey(let section, let key): return "\(place): key '\(key)' given twice in [\(section)]"
        case .missingKey(let section, let key): return "\(place): missing key '\(key)' in [\(section)]"
        case .invalidSection(let section, let reason): return "\(place): [\(section)]: \(reason)"
        }
    }
}

extension StringProtocol {
    func trimmingASCIIWhitespace() -> SubSequence {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }) else { return self[endIndex...] }
        let end = lastIndex(where: { !isSpace($0) })!
        return self[start...end]
    }
}
