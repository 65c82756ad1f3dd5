import AccessoryPlatform
import AccessoryRadios
import Foundation
import Glibc
import Testing
import TestSupport

@Suite("NetworkManager device state")
struct NetworkManagerDeviceStateTests {
    let scratch: ScratchDirectory

    init() throws {
        scratch = try ScratchDirectory("nm")
    }

    /// A run-state directory like /run/NetworkManager/devices with one file for `lo`.
    private func directory(loFile: String?) throws -> String {
        if let loFile { try loFile.write(toFile: scratch.path("\(if_nametoindex("lo"))"), atomically: true, encoding: .utf8) }
        return scratch.path
    }

    @Test("managed=true in the [device] group of the interface's ifindex file means managed")
    func managed() throws {
        let file = "[device]\nmanaged=true\nperm-hw-addr-fake=\nconnection-uuid=0b4c\n"
        #expect(try NetworkManagerDeviceState.manages("lo", directory: try directory(loFile: file)))
    }

    @Test("unmanaged, no file, or managed= outside [device]: not managed", arguments: [
        "[device]\nmanaged=false\n", "[dhcp4]\nmanaged=true\n[device]\n", "",
    ])
    func notManaged(file: String) throws {
        #expect(try !NetworkManagerDeviceState.manages("lo", directory: try directory(loFile: file)))
    }

    @Test("no run state at all: not managed; an unknown interface: an error")
    func noState() throws {
        #expect(try !NetworkManagerDeviceState.manages("lo", directory: try directory(loFile: nil)))
        #expect(throws: SystemError.self) { try NetworkManagerDeviceState.manages("nosuchif9", directory: "/nonexistent") }
    }
}
