import AccessoryCore
import AccessoryPlatform
import AccessoryCommandLine

/// `accessoryctl check-descriptors FILE`: validates a descriptor file (the
/// format `accessoryd --monitor --descriptors` reads) against the rules.
struct CheckDescriptors: ControlCommand {
    static let declaration = CommandDeclaration(
        "check-descriptors",
        abstract: "Check a file of discovery descriptors against AccessorySetupKit's rules.",
        discussion: "Exits with status 1, naming the file, line and reason, when a descriptor is invalid.",
        arguments: [ArgumentDeclaration("file", help: "The descriptor file.", completion: .file)])

    var file: String

    init(_ line: ParsedCommandLine) throws(CommandLineError) {
        file = try line.requiredArgument("file")
    }

    func run() throws(CommandLineError) -> Int32 {
        let read: [UInt8]?
        do {
            read = try FileSystem.readFileIfPresent(file)
        } catch {
            throw .rule("\(file): \(error)")
        }
        guard let bytes = read else { throw .rule("\(file): no such file") }
        do throws(KeyFileError) {
            for entry in try DescriptorFile.parse(bytes, source: file) {
                let radios = [entry.descriptor.describesBluetooth ? "bluetooth" : nil,
                              entry.descriptor.describesWiFi ? "wifi" : nil].compactMap { $0 }
                print("\(entry.app)\(entry.id) \(entry.name): valid (\(radios.joined(separator: ", ")))")
            }
        } catch {
            print("invalid: \(error)")
            return 1
        }
        return 0
    }
}
