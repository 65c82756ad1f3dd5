import AccessoryCore

/// The JSON of the accessory topics (accessory-mqtt(8), PAYLOADS).
public enum Payloads {
    public static let online = "online"
    public static let offline = "offline"

    /// `{"state":"home","gateway":"hall","rssi":-52}`; `not_home` carries no RSSI.
    public static func presence(_ accessory: BridgedAccessory, gateway: String) -> String? {
        guard let present = accessory.isPresent else { return nil }
        var object = JSONObject()
        object.set("state", present ? "home" : "not_home")
        object.set("gateway", gateway)
        if present { object.set("rssi", accessory.rssi) }
        return object.text
    }

    /// The latest advertisement's decoded fields, with the RSSI it was heard at.
    public static func advertisement(_ accessory: BridgedAccessory, gateway: String) -> String? {
        guard let fields = accessory.advertisement else { return nil }
        var object = JSONObject()
        object.set("gateway", gateway)
        object.set("rssi", accessory.rssi)
        object.set("local_name", fields.localName)
        object.set("tx_power", fields.txPower)
        var services = JSONObject()
        for (uuid, hex) in fields.serviceData { services.set(uuid, hex) }
        object.set("service_data", services)
        var companies = JSONObject()
        for (company, hex) in fields.manufacturerData { companies.set(company, hex) }
        object.set("manufacturer_data", companies)
        return object.text
    }

    /// `{"id":"…","name":"Lab Sensor","state":"authorized","gateway":"hall"}`.
    public static func state(_ accessory: BridgedAccessory, gateway: String) -> String {
        var object = JSONObject()
        object.set("id", accessory.id.description)
        object.set("name", accessory.name)
        object.set("state", accessory.state.rawValue)
        object.set("gateway", gateway)
        return object.text
    }
}
