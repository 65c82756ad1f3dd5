// swift-tools-version:6.0
// Layers (arrows point down only):
//   executables (accessoryd: the daemon and accessoryctl in one binary; accessory-bench) and the
//   client library AccessorySetup, over the commands AccessorydCommand and AccessoryctlCommand
//   → AccessoryDaemon (wiring, configuration; the daemon and its commands only)
//   → AccessoryRadios (HCI, L2CAP connects, nl80211, wpa_supplicant, DHCP, the radio inventory)
//   → AccessoryWire (the D-Bus contract: names, member declarations, argument codecs; shared by
//     the daemon, accessoryctl and AccessorySetup)
//   → AccessoryPlatform (what every process needs: the bus, the event loop, the journal, files,
//     descriptors, processes, clocks, errors, the one EINTR retry)
//   → AccessoryCodecs (pure byte parsers and encoders: HCI, btsnoop, nl80211, wpa_supplicant, grants)
//   → AccessoryATT (the ATT PDU codec, all an app's GATT client needs)
//   → AccessoryCore (pure domain: models, descriptors, matching, presence, the authorization
//     core as a value, the deadline queue)
// Only AccessoryPlatform and AccessoryRadios make syscalls or call C libraries. The client
// library and accessoryctl stand on AccessoryPlatform and AccessoryWire alone: an app links no
// radio code and no libnl (`make app-links-test`).
import PackageDescription

// The daemon's release build skips the runtime exclusivity checks: they cost
// ~880 instructions of ~7,900 per advertising report (callgrind, issue 25),
// each access to a class's stored property on the intake path. Debug
// builds, which every test runs, keep them, and the compile-time checks stay.
// Not on a target AccessorySetup links: an app's build keeps its checks.
let intakeSettings: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
    name: "accessory-agent",
    products: [
        .executable(name: "accessoryd", targets: ["accessoryd"]),
        .executable(name: "accessoryctl", targets: ["accessoryctl"]),
        .library(name: "AccessorySetup", targets: ["AccessorySetup"]),
        .executable(name: "accessory-mqtt", targets: ["accessory-mqtt"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
    ],
    targets: [
        // Layer 1: pure domain, standard library only.
        .target(name: "AccessoryCore"),

        // Layer 2: pure codecs over bytes. ATT apart: an app speaks it over the channel it
        // is handed, and needs none of the daemon's HCI, btsnoop or nl80211 codecs.
        .target(name: "AccessoryATT", dependencies: ["AccessoryCore"]),
        .target(name: "AccessoryCodecs", dependencies: ["AccessoryCore", "AccessoryATT"]),

        // C libraries from Debian, through pkg-config.
        .systemLibrary(
            name: "CSystemd", pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(
            name: "CNetlink", pkgConfig: "libnl-genl-3.0",
            providers: [.apt(["libnl-genl-3-dev"])]),
        // Headers only: the kernel's Bluetooth socket ABI (structs, constants) from
        // BlueZ's headers. No pkgConfig on purpose: `pkg-config bluez` adds
        // -lbluetooth, and no libbluetooth (GPL) function is called or linked.
        .systemLibrary(
            name: "CBluetooth",
            providers: [.apt(["libbluetooth-dev"])]),
        // AES-128 for resolving private addresses: Nettle, already on every board
        // (apt needs it) and free of global state (NettleAES128.swift says why).
        .systemLibrary(
            name: "CNettle", pkgConfig: "nettle",
            providers: [.apt(["nettle-dev"])]),

        // Layer 3: system adapters. The platform is what every process needs (an app
        // too); the radios only the daemon.
        .target(
            name: "AccessoryPlatform",
            dependencies: ["AccessoryCore", "CSystemd", .product(name: "Logging", package: "swift-log")]),
        .target(
            name: "AccessoryRadios",
            dependencies: [
                "AccessoryCore", "AccessoryCodecs", "AccessoryPlatform", "CNetlink", "CBluetooth", "CNettle",
            ]),

        // The bus contract, declared once for both ends of the bus.
        .target(name: "AccessoryWire", dependencies: ["AccessoryCore", "AccessoryPlatform"]),

        // Layer 4: the daemon's wiring, configuration and the executables.
        // The daemon's decisions as values: state machines and schedules that
        // take inputs and the current instant and return actions, with no
        // socket, file or clock, so their tests link neither the daemon nor
        // its platform.
        .target(
            name: "AccessoryDecisions",
            dependencies: ["AccessoryCore", "AccessoryCodecs"],
            swiftSettings: intakeSettings),
        .target(
            name: "AccessoryDaemon",
            dependencies: [
                "AccessoryCore", "AccessoryCodecs", "AccessoryDecisions", "AccessoryPlatform", "AccessoryRadios", "AccessoryWire",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: intakeSettings),
        // The command line: options, arguments, subcommands, help and bash
        // completions from one declaration; standard library only, no
        // reflection, so that parsing touches little of the binary at start.
        .target(name: "AccessoryCommandLine"),
        // The commands, as libraries: the shipped accessoryd is one multi-call
        // executable holding both (accessoryctl is a link to it).
        .target(
            name: "AccessorydCommand",
            dependencies: [
                "AccessoryCommandLine", "AccessoryCore", "AccessoryDaemon", "AccessoryPlatform",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(
            name: "AccessoryctlCommand",
            dependencies: ["AccessoryCommandLine", "AccessoryCore", "AccessoryPlatform", "AccessoryWire"]),
        // Linked by lld with packed relative relocations (DT_RELR, glibc 2.36 or
        // later: Debian 12 and trixie): ~33,000 relocations in 6 kB instead of
        // 770 kB of .rela.dyn read at every start. No symbol exported: the Swift
        // toolchain's static-stdlib link asks for -export-dynamic, which put
        // ~9,400 of our symbols (850 kB) in the dynamic symbol table for nothing.
        // The functions that run until the daemon idles are laid out together
        // (packaging/link/startup-order makes the list): the kernel maps 64 kB
        // around every page touched, and spread over .text they made most of
        // it resident.
        .executableTarget(
            name: "accessoryd", dependencies: ["AccessorydCommand", "AccessoryctlCommand"],
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
                        "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/packaging/link/accessoryd-startup.order",
                        "-Xlinker", "--no-warn-symbol-ordering",
                    ],
                    .when(platforms: [.linux])),
            ]),
        .executableTarget(name: "accessoryctl", dependencies: ["AccessoryctlCommand"]),
        .target(name: "AccessorySetup", dependencies: ["AccessoryCore", "AccessoryATT", "AccessoryPlatform", "AccessoryWire"]),
        // The model app: the client library, plus the platform for its own HTTP request and output.
        .executableTarget(name: "accessory-example", dependencies: ["AccessorySetup", "AccessoryCore", "AccessoryPlatform"]),
        // The lab's Bluetooth LE accessory (GATT over L2CAP); not shipped.
        .executableTarget(
            name: "lab-peripheral", dependencies: [
                "AccessoryCore", "AccessoryATT", "AccessoryCodecs", "AccessoryPlatform", "AccessoryRadios", "AccessorySetup",
            ]),
        // The MQTT bridge (issue 29): an app on the client library and libmosquitto.
        // Its decisions (topics, payloads, discovery, the rate limit) are values in
        // AccessoryMQTT, which needs Core alone; the executable carries them out.
        .systemLibrary(
            name: "CMosquitto", pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]),
        .target(name: "AccessoryMQTT", dependencies: ["AccessoryCore"]),
        .executableTarget(
            name: "accessory-mqtt",
            dependencies: ["AccessoryMQTT", "AccessorySetup", "AccessoryCore", "AccessoryPlatform", "CMosquitto", "CSystemd"]),
        .executableTarget(
            name: "accessory-bench",
            dependencies: ["AccessoryCore", "AccessoryCodecs", "AccessoryDecisions", "AccessoryDaemon", "AccessoryRadios", "TestSupport"]),

        // The bridge's values in process; the bridge against a real mosquitto and accessoryd.
        .testTarget(
            name: "AccessoryMQTTTests",
            dependencies: ["AccessoryMQTT", "AccessoryCore", "AccessoryCodecs", "TestSupport"]),
        .testTarget(name: "AccessoryCommandLineTests", dependencies: ["AccessoryCommandLine"]),
        .testTarget(name: "AccessoryCoreTests", dependencies: ["AccessoryCore", "TestSupport"]),
        .testTarget(
            name: "AccessoryCodecsTests", dependencies: ["AccessoryCodecs", "AccessoryATT", "AccessoryCore", "TestSupport"],
            resources: [.copy("Fixtures")]),
        // Shared by the tests and the benchmarks: a seeded generator, a private dbus-daemon.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // An app or picker agent in a process of its own, for the tests whose caller must be another
        // unix user or change its groups after connecting (started under setpriv); not shipped.
        .executableTarget(name: "accessory-test-client", dependencies: ["AccessoryPlatform", "AccessoryWire"], path: "Tests/TestClient"),
        // The fuzz corpus through the decoders, one canonical line per input: the arm64 build's
        // lines compared with the amd64 build's guard the parsers against miscompiles, where
        // Debian's 6.2.3 cannot link the unit tests (packaging/arm64/README.md); not shipped.
        .executableTarget(
            name: "accessory-decode-check", dependencies: ["AccessoryCore", "AccessoryATT", "AccessoryCodecs"],
            path: "Tests/DecodeCheck"),
        .testTarget(name: "AccessoryPlatformTests", dependencies: ["AccessoryPlatform", "TestSupport"]),
        .testTarget(
            name: "AccessoryRadiosTests",
            dependencies: ["AccessoryRadios", "AccessoryPlatform", "AccessoryCodecs", "AccessoryCore", "TestSupport"]),
        // The daemon's decisions in process, without the daemon or its platform.
        .testTarget(name: "AccessoryDecisionsTests", dependencies: ["AccessoryDecisions", "AccessoryCore", "AccessoryCodecs"]),
        .testTarget(name: "AccessoryDaemonTests", dependencies: ["AccessoryDaemon", "AccessoryDecisions", "AccessoryWire", "TestSupport"]),
        // accessoryctl as a process: offline, and against a fake Admin1 on a private bus.
        .testTarget(name: "AccessoryctlTests", dependencies: ["AccessoryPlatform", "TestSupport"]),
        // AccessoryDaemon: what the real service does with the library's calls, where FakeAgent cannot tell.
        .testTarget(
            name: "AccessorySetupTests",
            dependencies: ["AccessorySetup", "AccessoryCore", "AccessoryPlatform", "AccessoryWire", "TestSupport", "AccessoryDaemon", "AccessoryDecisions"]),
        // The contract: the README's tables against the declarations, and every
        // structured argument from one side's encoder to the other side's decoder.
        .testTarget(
            name: "AccessoryWireTests",
            dependencies: ["AccessoryWire", "AccessoryCore", "AccessoryPlatform", "AccessoryDaemon", "AccessorySetup", "CSystemd", "TestSupport"]),
    ]
)

// The libFuzzer targets (Tests/Fuzz), only in the build `make fuzz` makes
// (sanitized, in .build/fuzz): they need libFuzzer's runtime to link, so an
// ordinary build never compiles them.
if Context.environment["ACCESSORY_FUZZ"] == "1" {
    package.targets += [
        .executableTarget(
            name: "accessory-fuzz",
            dependencies: [
                "AccessoryCore", "AccessoryATT", "AccessoryCodecs", "AccessoryPlatform", "AccessoryRadios", "AccessoryWire",
                "AccessoryDecisions", "AccessoryDaemon", "CSystemd", "CLibFuzzer",
            ],
            path: "Tests/Fuzz/Targets"),
        // libFuzzer's driver entry, declared for Swift: the runtime defines it.
        .systemLibrary(name: "CLibFuzzer", path: "Tests/Fuzz/CLibFuzzer"),
    ]
}
