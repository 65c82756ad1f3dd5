/// A positional argument a command accepts, in the order declared.
public struct ArgumentDeclaration: Sendable {
    public enum Kind: Sendable, Equatable {
        /// Must be given.
        case required
        /// May be left out (only after the required ones).
        case optional
        /// Everything after `--`, as it is: a command line to run.
        case afterTerminator
    }

    /// Shown as `<name>` in help and errors.
    public var name: String
    public var kind: Kind
    public var help: String
    public var completion: OptionDeclaration.Completion

    public init(_ name: String, kind: Kind = .required, help: String, completion: OptionDeclaration.Completion = .none) {
        self.name = name
        self.kind = kind
        self.help = help
        self.completion = completion
    }

    public var synopsis: String {
        switch kind {
        case .required: "<\(name)>"
        case .optional: "[<\(name)>]"
        case .afterTerminator: "[-- <\(name)> ...]"
        }
    }
}
