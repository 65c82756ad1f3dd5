/// A shell-style glob over a device name, beyond AccessorySetupKit (Home
/// Assistant's `local_name` matchers and Android's name filters do this):
/// `*` any run of characters, `?` one character, `[abc]`, `[a-z]`, `[!a-z]`
/// (or `[^a-z]`) one character of (or not of) a set, `\x` the character x.
/// The whole name must match. Case-sensitive: write `[Aa]` for either case.
///
/// Matching is the iterative two-pointer algorithm that remembers only the
/// last `*`, so it takes at most (name length × pattern length) steps: no
/// pattern, however hostile, can make it backtrack exponentially.
public struct NamePattern: Hashable, Sendable, CustomStringConvertible {
    /// Names in the Device Name characteristic are at most 248 octets; a longer pattern could never be needed.
    public static let maximumLength = 248

    enum Token: Hashable, Sendable {
        case literal(Unicode.Scalar)
        case anyOne
        case anyRun
        case set(negated: Bool, members: [ClosedRange<Unicode.Scalar>])
    }

    public let source: String
    let tokens: [Token]

    public init(_ source: String) throws(NamePatternError) {
        guard !source.isEmpty else { throw .empty }
        guard source.utf8.count <= Self.maximumLength else { throw .tooLong(length: source.utf8.count) }
        self.source = source
        // Appended one by one into room for as many scalars as octets: an
        // Array made from the view counts the scalars in a pass of its own.
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(source.utf8.count)
        for scalar in source.unicodeScalars { scalars.append(scalar) }
        // At most one token a scalar: reserved once, not grown append by append.
        var tokens: [Token] = []
        tokens.reserveCapacity(scalars.count)
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            switch c {
            case "*":
                // `**` is `*`: collapsing keeps the step bound tight.
                if tokens.last != .anyRun { tokens.append(.anyRun) }
                i += 1
            case "?":
                tokens.append(.anyOne)
                i += 1
            case "\\":
                guard i + 1 < scalars.count else { throw .trailingEscape }
                tokens.append(.literal(scalars[i + 1]))
                i += 2
            case "[":
                let (token, next) = try Self.parseSet(scalars, openingAt: i)
                tokens.append(token)
                i = next
            default:
                tokens.append(.literal(c))
                i += 1
            }
        }
        self.tokens = tokens
    }

    /// Parses `[...]` starting at `start` (the `[`); returns the token and the index after `]`.
    private static func parseSet(_ s: [Unicode.Scalar], openingAt start: Int) throws(NamePatternError) -> (Token, Int) {
        var i = start + 1
        var negated = false
        if i < s.count, s[i] == "!" || s[i] == "^" {
            negated = true
            i += 1
        }
        var members: [ClosedRange<Unicode.Scalar>] = []
        var first = true
        while i < s.count {
            var c = s[i]
            // As in POSIX, a `]` first in the set is a member, not the end.
            if c == "]", !first { return (.set(negated: negated, members: members), i + 1) }
            first = false
            if c == "\\" {
                guard i + 1 < s.count else { throw .trailingEscape }
                i += 1
                c = s[i]
            }
            if i + 2 < s.count, s[i + 1] == "-", s[i + 2] != "]" {
                var upper = s[i + 2]
                var end = i + 2
                if upper == "\\" {
                    guard i + 3 < s.count else { throw .trailingEscape }
                    upper = s[i + 3]
                    end = i + 3
                }
                guard c <= upper else { throw .invalidRange(lower: c, upper: upper) }
                members.append(c...upper)
                i = end + 1
            } else {
                members.append(c...c)
                i += 1
            }
        }
        throw .unterminatedSet(offset: start)
    }

    public func matches(_ name: String) -> Bool { matches(scalars: Array(name.unicodeScalars)) }

    /// The name as Unicode scalars, so a caller matching many patterns splits it once.
    public func matches(scalars name: [Unicode.Scalar]) -> Bool {
        matches(count: name.count) { name[$0] }
    }

    /// The same over a name of `count` scalars read through `scalar`: an
    /// ASCII name is matched as the bytes it was sent as, with no array made.
    func matches(count: Int, _ scalar: (Int) -> Unicode.Scalar) -> Bool {
        var p = 0
        var n = 0
        var lastRun: Int? = nil  // pattern index of the last `*` seen
        var resumeAt = 0  // name index that `*` will swallow up to on the next retry
        while n < count {
            if p < tokens.count {
                if tokens[p] == .anyRun {
                    lastRun = p
                    resumeAt = n
                    p += 1
                    continue
                }
                if Self.token(tokens[p], accepts: scalar(n)) {
                    p += 1
                    n += 1
                    continue
                }
            }
            // Mismatch: let the last `*` swallow one more character and retry.
            guard let run = lastRun else { return false }
            resumeAt += 1
            n = resumeAt
            p = run + 1
        }
        while p < tokens.count, tokens[p] == .anyRun { p += 1 }
        return p == tokens.count
    }

    private static func token(_ token: Token, accepts c: Unicode.Scalar) -> Bool {
        switch token {
        case .literal(let l): return l == c
        case .anyOne: return true
        case .anyRun: return true
        case .set(let negated, let members): return members.contains { $0.contains(c) } != negated
        }
    }

    public var description: String { source }
}

/// A name pattern that cannot be compiled, and why.
public enum NamePatternError: Error, Hashable, Sendable, CustomStringConvertible {
    case empty
    case tooLong(length: Int)
    /// A `[` with no closing `]`; the offset is in Unicode scalars.
    case unterminatedSet(offset: Int)
    /// A `\` with nothing after it.
    case trailingEscape
    /// A range such as `[z-a]` whose ends are reversed.
    case invalidRange(lower: Unicode.Scalar, upper: Unicode.Scalar)

    public var description: String {
        switch self {
        case .empty: "the pattern is empty"
        case .tooLong(let length): "the pattern is \(length) bytes, more than \(NamePattern.maximumLength)"
        case .unterminatedSet(let offset): "the '[' at character \(offset) has no closing ']'"
        case .trailingEscape: "the pattern ends with a lone '\\'"
        case .invalidRange(let lower, let upper): "the range '\(lower)-\(upper)' is reversed"
        }
    }
}
