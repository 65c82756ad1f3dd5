import AccessoryCore

/// One line typed (or piped) in answer to `accessoryctl pick`'s question.
enum PickAnswer: Equatable {
    case approve(candidate: UInt32)
    /// `r`, or `r N`: ask for a name, then approve.
    case renameAndApprove(candidate: UInt32?)
    case deny
    /// An empty line: list the candidates again (more may have been found).
    case refresh
    case quit
    /// Not an answer; the reason, to print before asking again.
    case invalid(String)

    /// `candidates` are the numbers that may be approved (`[0]` for a migration).
    init(_ line: String, candidates: [UInt32]) {
        let words = line.split(whereSeparator: \.isWhitespace).map { $0.lowercased() }
        guard let first = words.first else { self = .refresh; return }
        func candidate(_ word: String) -> UInt32? {
            guard let number = UInt32(word), candidates.contains(number) else { return nil }
            return number
        }
        let choices = candidates.map(String.init).joined(separator: ", ")
        switch first {
        case "q", "quit":
            self = words.count == 1 ? .quit : .invalid("not an answer: \(DisplayText.quoted(line))")
        case "d", "deny":
            self = words.count == 1 ? .deny : .invalid("not an answer: \(DisplayText.quoted(line))")
        case "r", "rename":
            if words.count == 1 {
                self = .renameAndApprove(candidate: nil)
            } else if words.count == 2, let number = candidate(words[1]) {
                self = .renameAndApprove(candidate: number)
            } else {
                self = .invalid("rename which candidate? choose \(choices)")
            }
        default:
            if words.count == 1, let number = candidate(first) {
                self = .approve(candidate: number)
            } else if words.count == 1, UInt32(first) != nil {
                self = .invalid("no candidate \(first): choose \(choices)")
            } else {
                self = .invalid("not an answer: \(DisplayText.quoted(line))")
            }
        }
    }

    /// Which candidate a typed number names, for the rename question.
    static func candidate(_ line: String, of candidates: [UInt32]) -> UInt32? {
        let words = line.split(whereSeparator: \.isWhitespace)
        guard words.count == 1, let number = UInt32(words[0]), candidates.contains(number) else { return nil }
        return number
    }
}
