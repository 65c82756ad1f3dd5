/// One corpus directory's decoders: a name (the directory's, as in
/// Tests/Fuzz/corpus) and what one input decodes to, as canonical text.
struct DecodeTarget: Sendable {
    let name: String
    let decode: @Sendable ([UInt8]) -> String
}

/// `ok VALUE` or `error ERROR`, each rendered canonically.
func outcome<T>(_ body: () throws -> T) -> String {
    do {
        return "ok " + CanonicalRendering.render(try body())
    } catch {
        return "error " + CanonicalRendering.render(error)
    }
}

/// Several decodings of one input, labelled, on one line.
func parts(_ items: KeyValuePairs<String, String>) -> String {
    items.map { "\($0.key)=\($0.value)" }.joined(separator: " | ")
}
