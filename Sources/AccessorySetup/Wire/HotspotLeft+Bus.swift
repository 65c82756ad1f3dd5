import AccessoryCore
import AccessoryPlatform
import AccessoryWire

extension HotspotLeft {
    /// `HotspotLeft(o accessory, s reason)`; nil for a path that names no accessory.
    static func read(from message: BusMessage) throws(BusError) -> HotspotLeft? {
        let path = try message.readObjectPath()
        let reason = try message.readString()
        return BusNames.accessory(at: path).map { HotspotLeft(accessory: $0, reason: reason) }
    }
}
