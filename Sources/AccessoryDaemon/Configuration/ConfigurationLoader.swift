import AccessoryCore
import AccessoryPlatform

/// Where the configuration comes from: the main file, then the drop-ins of
/// its `conf.d` directory in name order, each overriding what came before,
/// all over the compiled-in defaults.
public struct ConfigurationSources: Equatable, Sendable {
    public static let defaultMainFile = "/etc/accessoryd/accessoryd.conf"
    public static let defaultDropInDirectory = "/etc/accessoryd/conf.d"

    public var mainFile: String
    /// Must exist when given explicitly with `--config`.
    public var mainFileRequired: Bool
    public var dropInDirectory: String?

    public init(mainFile: String, mainFileRequired: Bool, dropInDirectory: String?) {
        self.mainFile = mainFile
        self.mainFileRequired = mainFileRequired
        self.dropInDirectory = dropInDirectory
    }

    /// The system's configuration: /etc/accessoryd/accessoryd.conf and conf.d/.
    public static let system = ConfigurationSources(
        mainFile: defaultMainFile, mainFileRequired: false, dropInDirectory: defaultDropInDirectory)

    /// `--config FILE`: that file alone, which must exist.
    public static func explicit(_ path: String) -> ConfigurationSources {
        ConfigurationSources(mainFile: path, mainFileRequired: true, dropInDirectory: nil)
    }

    /// Reads and applies every file; the first error stops the load and
    /// nothing of a failed load is applied.
    public func load() throws(ConfigurationError) -> DaemonConfiguration {
        var configuration = DaemonConfiguration()
        var paths = [mainFile]
        do {
            if let directory = dropInDirectory, let names = try FileSystem.entries(of: directory, withSuffix: ".conf") {
                paths += names.map { directory + "/" + $0 }
            }
            for path in paths {
                guard let bytes = try FileSystem.readFileIfPresent(path) else {
                    if path == mainFile && mainFileRequired { throw ConfigurationError.missing(path) }
                    continue
                }
                try configuration.apply(KeyFile(parsing: bytes, source: path))
            }
        } catch let error as ConfigurationError {
            throw error
        } catch let error as KeyFileError {
            throw .invalid(error)
        } catch let error as SystemError {
            throw .unreadable(error)
        } catch {
            throw .unreadable(SystemError(operation: "\(error)", errno: 0))
        }
        return configuration
    }
}

public enum ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    case missing(String)
    case unreadable(SystemError)
    case invalid(KeyFileError)

    public var description: String {
        switch self {
        case .missing(let path): "\(path): configuration file not found"
        case .unreadable(let error): "cannot read configuration: \(error)"
        case .invalid(let error): error.description
        }
    }

    /// Structured fields for the journal: which file, line and key.
    public var metadata: [String: String] {
        guard case .invalid(let error) = self else { return [:] }
        var fields = ["config.file": error.source]
        if let line = error.line { fields["config.line"] = String(line) }
        switch error.reason {
        case .unknownKey(_, let key), .invalidValue(_, let key, _, _), .duplicateKey(_, let key),
            .missingKey(_, let key), .malformedKey(let key), .assignmentOutsideSection(let key):
            fields["config.key"] = key
        default: break
        }
        return fields
    }
}
