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
    public let sections: [String]
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
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw KeyFileError(source: source, line: nil, reason: .notUTF8)
        }
        var entries: [Entry] = []
        var sections: [String] = []
        var headers: [SectionHeader] = []
        var section: String?
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.trimmingASCIIWhitespace()
            if line.isEmpty || line.first == "#" || line.first == ";" { continue }
            if line.first == "[" {
                guard line.last == "]", line.count > 2 else {
                    throw KeyFileError(source: source, line: lineNumber, reason: .malformedSectionHeader(String(line)))
                }
                let name = String(line.dropFirst().dropLast())
                guard name.allSatisfy(Self.isSectionCharacter) else {
                    throw KeyFileError(source: source, line: lineNumber, reason: .malformedSectionHeader(String(line)))
                }
                section = name
                sections.append(name)
                headers.append(SectionHeader(name: name, line: lineNumber))
                continue
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
        self.entries = entries
        self.sections = sections
        self.sectionHeaders = headers
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
