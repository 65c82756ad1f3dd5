import AccessoryCore
import Foundation
import Testing
import TestSupport
@testable import AccessoryDaemon

@Suite struct ConfigurationLoaderTests {
    let scratch: ScratchDirectory
    var directory: String { scratch.path }

    init() throws {
        scratch = try ScratchDirectory("accessoryd")
        try FileManager.default.createDirectory(atPath: directory + "/conf.d", withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
    }

    var sources: ConfigurationSources {
        ConfigurationSources(
            mainFile: directory + "/accessoryd.conf", mainFileRequired: false, dropInDirectory: directory + "/conf.d")
    }

    @Test func dropInsOverrideTheMainFileInNameOrder() throws {
        try write("accessoryd.conf", "[Daemon]\nLogLevel=error\n[Bluetooth]\nEnabled=no\n")
        try write("conf.d/20-late.conf", "[Daemon]\nLogLevel=debug\n")
        try write("conf.d/10-early.conf", "[Daemon]\nLogLevel=warning\n[Wi-Fi]\nEnabled=no\n")
        try write("conf.d/30-ignored.conf.disabled", "[Daemon]\nLogLevel=trace\n")
        let configuration = try sources.load()
        #expect(configuration.logLevel == .debug)
        #expect(!configuration.bluetoothEnabled)
        #expect(!configuration.wifiEnabled)
    }

    @Test func missingSystemFilesMeanDefaults() throws {
        #expect(try sources.load() == DaemonConfiguration())
    }

    @Test func anExplicitFileMustExist() {
        #expect(throws: ConfigurationError.missing(directory + "/nope.conf")) {
            try ConfigurationSources.explicit(directory + "/nope.conf").load()
        }
    }

    @Test func aBadDropInIsNamedAndNothingIsApplied() throws {
        try write("conf.d/50-typo.conf", "[Daemon]\n\nLogLvel=debug\n")
        #expect(throws: ConfigurationError.invalid(KeyFileError(
            source: directory + "/conf.d/50-typo.conf", line: 3,
            reason: .unknownKey(section: "Daemon", key: "LogLvel")))) {
            try sources.load()
        }
    }

    @Test func errorMetadataNamesFileLineAndKey() {
        let error = ConfigurationError.invalid(KeyFileError(
            source: "/etc/accessoryd/accessoryd.conf", line: 7, reason: .unknownKey(section: "Daemon", key: "Foo")))
        #expect(error.metadata == [
            "config.file": "/etc/accessoryd/accessoryd.conf", "config.line": "7", "config.key": "Foo",
        ])
    }
}
