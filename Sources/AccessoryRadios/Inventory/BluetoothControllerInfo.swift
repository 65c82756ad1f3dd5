import AccessoryCore
import AccessoryPlatform
import CBluetooth
import Glibc

/// A Bluetooth controller the kernel knows, as HCIGETDEVINFO describes it.
public struct BluetoothControllerInfo: Hashable, Sendable {
    /// The HCI index: 0 for `hci0`.
    public var index: UInt16
    public var name: String
    public var address: BluetoothAddress
    public var isUp: Bool
    /// The controller's LMP features say it supports Low Energy.
    public var supportsLowEnergy: Bool

    /// Lists every controller through a raw HCI socket. A kernel without
    /// Bluetooth (EAFNOSUPPORT) has no controllers, which is not an error.
    public static func all() throws(SystemError) -> [BluetoothControllerInfo] {
        let fd = socket(AF_BLUETOOTH, SocketType.raw | SocketType.closeOnExec, BTPROTO_HCI)
        if fd < 0 {
            if errno == EAFNOSUPPORT || errno == EPROTONOSUPPORT { return [] }
            throw SystemError.last("socket(AF_BLUETOOTH, BTPROTO_HCI)")
        }
        defer { close(fd) }

        let maximum = Int(HCI_MAX_DEV)
        let headerSize = MemoryLayout<hci_dev_list_req>.size
        let entrySize = MemoryLayout<hci_dev_req>.stride
        let buffer = UnsafeMutableRawPointer.allocate(
            byteCount: headerSize + maximum * entrySize, alignment: MemoryLayout<hci_dev_req>.alignment)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: headerSize + maximum * entrySize)
        buffer.storeBytes(of: UInt16(maximum), as: UInt16.self)
        guard ioctl(fd, accessory_HCIGETDEVLIST, buffer) >= 0 else { throw SystemError.last("ioctl(HCIGETDEVLIST)") }

        let count = min(Int(buffer.load(as: UInt16.self)), maximum)
        var controllers: [BluetoothControllerInfo] = []
        for slot in 0..<count {
            let request = buffer.load(fromByteOffset: headerSize + slot * entrySize, as: hci_dev_req.self)
            var info = hci_dev_info()
            info.dev_id = request.dev_id
            // A controller that vanished between the two calls is simply gone.
            guard ioctl(fd, accessory_HCIGETDEVINFO, &info) >= 0 else { continue }
            controllers.append(BluetoothControllerInfo(info))
        }
        return controllers.sorted { $0.index < $1.index }
    }

    init(_ info: hci_dev_info) {
        index = info.dev_id
        name = withUnsafeBytes(of: info.name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        address = withUnsafeBytes(of: info.bdaddr.b) { BluetoothAddress(littleEndianOctets: $0)! }
        isUp = info.flags & (1 << UInt32(HCI_UP)) != 0
        let features = withUnsafeBytes(of: info.features) { Array($0) }
        supportsLowEnergy = features[4] & UInt8(LMP_LE) != 0
    }
}
