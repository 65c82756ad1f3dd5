import Foundation
import Testing
import TestSupport

/// accessoryctl's offline checks, run as the administrator runs them: as the
/// package installs it, a link named accessoryctl to the multi-call accessoryd.
@Suite struct AccessoryctlProcessTests {
    static var accessoryctl: String { BuiltPrograms.accessoryctl }

    @Test func theMultiCallBinaryIsTheDaemonUnderItsOwnName() throws {
        let control = try Self.runAlone(["--help"])
        #expect(control.status == 0)
        #expect(control.out.contains("The administrator's tool for accessoryd."))
        let daemon = try Self.runAlone(["--help"], program: BuiltPrograms.accessoryd)
        #expect(daemon.out.contains("Discovers Bluetooth LE and Wi-Fi accessories"))
        #expect(!daemon.out.contains("The administrator's tool"))
    }

    let scratch: ScratchDirectory
    var directory: String { scratch.path }

    init() throws {
        scratch = try ScratchDirectory("accessoryctl")
        for sub in ["vendor", "admin"] {
            try FileManager.default.createDirectory(atPath: directory + "/" + sub, withIntermediateDirectories: true)
        }
    }

    /// Runs accessoryctl with no bus or daemon to answer it: stdout and stderr apart.
    static func runAlone(_ arguments: [String], program: String = accessoryctl) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text, errors)
    }

    func run(_ arguments: [String]) throws -> (status: Int32, out: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.accessoryctl)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test func checkManifestsShowsAppsAndNamesRefusedFiles() throws {
        try "[App]\nName=acme\nUser=acmelog\nSupports=Bluetooth\n[Bluetooth]\nServiceUUIDs=180f\nCompanyIdentifiers=0x004C\n"
            .write(toFile: directory + "/vendor/acme.conf", atomically: true, encoding: .utf8)
        try "[App]\nName=broken\nColour=red\n".write(toFile: directory + "/vendor/broken.conf", atomically: true, encoding: .utf8)
        let result = try run(["check-manifests", "--vendor-directory", directory + "/vendor",
                              "--admin-directory", directory + "/admin"])
        #expect(result.status == 1)
        #expect(result.out.contains("acme: user=acmelog supports=bluetooth"))
        #expect(result.out.contains("  service UUIDs: 180F\n"))
        #expect(result.out.contains("  company identifiers: 0x004C\n"))
        #expect(result.out.contains("refused: \(directory)/vendor/broken.conf:3: unknown key 'Colour' in [App]"))
    }

    @Test func anEmptyAdministratorFileMasksTheApp() throws {
        try "[App]\nName=acme\nUser=acmelog\nSupports=Bluetooth\n[Bluetooth]\nServiceUUIDs=180F\n"
            .write(toFile: directory + "/vendor/acme.conf", atomically: true, encoding: .utf8)
        try "".write(toFile: directory + "/admin/acme.conf", atomically: true, encoding: .utf8)
        let result = try run(["check-manifests", "--vendor-directory", directory + "/vendor",
                              "--admin-directory", directory + "/admin"])
        #expect(result.status == 0)
        #expect(result.out == "acme: masked by an empty file in \(directory)/admin\n")
    }

    @Test func checkDescriptorsValidatesEachSection() throws {
        let good = directory + "/good.conf"
        try "[Descriptor cam]\nApp=acme\nSSIDPrefix=CAM-\n".write(toFile: good, atomically: true, encoding: .utf8)
        #expect(try run(["check-descriptors", good]) == (0, "acme#1 cam: valid (wifi)\n"))

        let bad = directory + "/bad.conf"
        try "[Descriptor tag]\nCompanyIdentifier=0x004C\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let result = try run(["check-descriptors", bad])
        #expect(result.status == 1)
        #expect(result.out.hasPrefix("invalid: \(bad):1: [Descriptor tag]: "))
    }
}
