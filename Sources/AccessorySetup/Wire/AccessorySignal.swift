import AccessoryCore
import AccessoryPlatform
import AccessoryWire

/// A signal on one of the app's accessory objects, its arguments read:
/// `Properties.PropertiesChanged` for presence, or `Accessory1.Advertisement`.
enum AccessorySignal: Hashable, Sendable {
    case presence(AccessoryID, PresenceUpdate)
    case advertisement(AccessoryAdvertisement)

    /// What a `PropertiesChanged` says of `Present` and `RSSI`. A property in
    /// `invalidated` changed, but its value was not sent (D-Bus's rule).
    struct PresenceUpdate: Hashable, Sendable {
        var present: Bool?
        var rssi: Int?
        var invalidated: Set<String> = []

        /// `accessory` after the update. Not heard means no signal strength,
        /// whatever RSSI held before.
        func applied(to accessory: Accessory) -> Accessory {
            var accessory = accessory
            if let present {
                accessory.isPresent = present
            } else if invalidated.contains("Present") {
                accessory.isPresent = nil
            }
            if let rssi {
                accessory.rssi = rssi
            } else if invalidated.contains("RSSI") || present == false {
                accessory.rssi = nil
            }
            return accessory
        }
    }

    /// Reads `message`; nil for a signal that is not about an accessory's
    /// presence or advertisements (another interface's properties, a path
    /// that names no accessory). Wrong arguments throw.
    static func read(_ message: BusMessage) throws(BusError) -> AccessorySignal? {
        guard let path = message.path, let id = BusNames.accessory(at: path) else { return nil }
        switch (message.interface, message.member) {
        case (BusNames.properties, FreedesktopInterfaces.propertiesChanged.name):
            guard try message.readString() == BusNames.accessory else { return nil }
            let values = try WireAccessoryProperties.read(message)
            var invalidated = Set(try message.readStrings()).intersection([Accessory1.present.name, Accessory1.rssi.name])
            guard values.present != nil || values.rssi != nil || !invalidated.isEmpty else { return nil }
            let rssi = values.rssi.flatMap(BusRSSI.decode)
            // An RSSI sent as "not known" clears the strength held, as an invalidated one does.
            if values.rssi != nil, rssi == nil { invalidated.insert(Accessory1.rssi.name) }
            return .presence(id, PresenceUpdate(present: values.present, rssi: rssi, invalidated: invalidated))
        case (BusNames.accessory, Accessory1.advertisement.name):
            let reader = PlainArguments(message)
            let rssi = try reader.int32()
            let data = try reader.bytes()
            return .advertisement(AccessoryAdvertisement(accessory: id, rssi: BusRSSI.decode(rssi), data: data))
        default:
            return nil
        }
    }
}
