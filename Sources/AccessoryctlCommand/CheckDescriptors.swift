import AccessoryCore
import AccessoryPlatform
import ArgumentParser

/// `accessoryctl check-descriptors FILE`: validates a descriptor file (the
/// format `accessoryd --monitor --descriptors` reads) against the rules.
struct CheckDescriptors: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-descriptors",
        abstract: "Check a file of discovery descriptors against AccessorySetupKit's rules.",
        discussion: "Exits with status 1, naming the file, line and reason, when a descriptor is invalid.")

    @Argument(help: ArgumentHelp("The descriptor file.", valueName: "file"))
    var file: String

    func run() throws {
        guard let bytes = try FileSystem.readFileIfPresent(file) else {
            throw ValidationError("\(file): no such file")
        }
        do throws(KeyFileError) {
            for entry in try DescriptorFile.parse(bytes, source: file) {
                let radios = [entry.descriptor.describesBluetooth ? "bluetooth" : nil,
                              entry.descriptor.describesWiFi ? "wifi" : nil].compactMap { $0 }
                print("\(entry.app)\(entry.id) \(entry.name): valid (\(radios.joined(separator: ", ")))")
            }
        } catch {
            print("invalid: \(error)")
            throw ExitCode.failure
        }
    }
}
