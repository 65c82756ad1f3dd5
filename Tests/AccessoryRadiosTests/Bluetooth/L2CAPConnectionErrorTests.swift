import AccessoryCore
import Glibc
import Testing
@testable import AccessoryRadios

@Suite struct L2CAPConnectionErrorTests {
    @Test(arguments: [
        (ECONNREFUSED, L2CAPConnectionError.refused), (EHOSTDOWN, .unreachable), (EHOSTUNREACH, .unreachable),
        (ETIMEDOUT, .timedOut), (ENODEV, .noSuchController), (EADDRNOTAVAIL, .noSuchController),
        (EMLINK, .connectionLimitExceeded), (EBUSY, .busy), (EALREADY, .busy), (ECONNRESET, .aborted),
        (EPERM, .notPermitted), (EACCES, .notPermitted),
    ])
    func errnoMapsToItsNamedReason(code: Int32, expected: L2CAPConnectionError) {
        #expect(L2CAPConnectionError(operation: "connect", errno: code) == expected)
    }

    @Test func otherErrnosKeepTheCallAndCode() {
        let error = L2CAPConnectionError(operation: "socket(BTPROTO_L2CAP)", errno: EAFNOSUPPORT)
        #expect(error == .system(operation: "socket(BTPROTO_L2CAP)", errno: EAFNOSUPPORT))
        #expect(error.description.hasPrefix("socket(BTPROTO_L2CAP): "))
    }

    @Test func peersParseAsOperatorsTypeThem() {
        let address = BluetoothAddress("00:AA:01:01:00:01")!
        #expect(BluetoothDeviceIdentifier(parsing: "00:AA:01:01:00:01")
            == BluetoothDeviceIdentifier(address: address, addressType: .public))
        #expect(BluetoothDeviceIdentifier(parsing: "00:aa:01:01:00:01/random")
            == BluetoothDeviceIdentifier(address: address, addressType: .random))
        #expect(BluetoothDeviceIdentifier(parsing: "00:AA:01:01:00:01/public")?.addressType == .public)
        for bad in ["", "00:AA:01:01:00", "00:AA:01:01:00:01/static", "00:AA:01:01:00:01/random/x", "/random"] {
            #expect(BluetoothDeviceIdentifier(parsing: bad) == nil, "\(bad)")
        }
    }
}
