import AccessoryPlatform
import AccessoryWire

/// Reads one call's arguments under the app limits. Every string, every
/// dictionary and every array element is counted as it is read, so a flood
/// (a megabyte name, a dictionary of a hundred thousand entries) is refused
/// at the first byte or entry over a limit, in time linear in what was read
/// up to there. A limit broken is a `BusError.limitsExceeded` whose message
/// names it; `BusArguments.read` turns it into `invalidRequest`.
final class LimitedArguments: ArgumentReader {
    let call: BusMessage
    let limits: AppLimits
    /// What this call's arguments have cost so far (`ArgumentBytes`).
    private(set) var bytes = 0

    var message: BusMessage { call }

    init(_ call: BusMessage, limits: AppLimits) {
        self.call = call
        self.limits = limits
    }

    func string(_ what: String = "a string argument") throws(BusError) -> String {
        let text = try call.readString()
        try count(text, what)
        return text
    }

    /// An `as`: at most `DictionaryEntries` words.
    func strings(_ what: String) throws(BusError) -> [String] {
        var words: [String] = []
        try array(.string, bound: .dictionaryEntries, what) { () throws(BusError) in words.append(try string(what)) }
        return words
    }

    /// An `a{ss}`: at most `DictionaryEntries` entries, each key once.
    func pairs(_ what: String) throws(BusError) -> [(key: String, value: String)] {
        let pairs: [(key: String, value: String)]
        do {
            pairs = try call.readStringPairs(maxEntries: limits.dictionaryEntries)
        } catch where error.name == BusError.limitsExceededName {
            throw .limitsExceeded(limits.refusal(.dictionaryEntries, "\(what) of more than \(limits.dictionaryEntries) entries"))
        } catch {
            throw .invalidArguments("\(what): \(error.message)")
        }
        for (key, value) in pairs {
            try count(key, "a key in \(what)")
            try count(value, "the value of \(key) in \(what)")
        }
        return pairs
    }

    /// An array of `element`, at most the limit `bound` names; `body`
    /// reads each (its fields).
    func array(_ element: BusType, bound: ArrayBound, _ what: String,
               _ body: () throws(BusError) -> Void) throws(BusError) {
        let limit = Self.limit(bound)
        var elements = 0
        try call.readArray(element.signature) { () throws(BusError) in
            elements += 1
            if let limit, elements > limits[limit] {
                throw .limitsExceeded(limits.refusal(limit, "\(what) of more than \(limits[limit])"))
            }
            try charge(8)
            try body()
        }
    }

    /// The app limit that bounds an array; every element is charged to `ArgumentBytes` all the same.
    private static func limit(_ bound: ArrayBound) -> AppLimits.Limit? {
        switch bound {
        case .displayItems: .displayItems
        case .migrationItems: .migrationItems
        case .dictionaryEntries: .dictionaryEntries
        case .none: nil
        }
    }

    private func count(_ text: String, _ what: String) throws(BusError) {
        let length = text.utf8.count
        guard length <= limits.stringLength else {
            throw .limitsExceeded(limits.refusal(.stringLength, "\(what) of \(length) bytes"))
        }
        try charge(length)
    }

    private func charge(_ cost: Int) throws(BusError) {
        bytes += cost
        guard bytes <= limits.argumentBytes else {
            throw .limitsExceeded(limits.refusal(.argumentBytes, "arguments of more than \(limits.argumentBytes) bytes"))
        }
    }
}
