import AccessoryCore

/// Home Assistant's MQTT discovery: retained configs under
/// `DISCOVERY/COMPONENT/NODE/OBJECT/config`. Each accessory is a device with
/// a `device_tracker` (source type `bluetooth_le`) and an RSSI sensor, both
/// reached `via_device` the gateway, whose own device is a connectivity
/// binary sensor on the status topic. Every entity's availability is that
/// status topic, so the broker's last will marks them all unavailable.
public struct HomeAssistantDiscovery: Sendable {
    public let topics: TopicLayout

    public init(topics: TopicLayout) { self.topics = topics }

    public var gatewayIdentifier: String { topics.nodeID }
    public func deviceIdentifier(_ id: AccessoryID) -> String { "\(topics.nodeID)_\(id)" }

    /// The gateway's device.
    public var gatewayConfig: Publication {
        var device = JSONObject()
        device.set("identifiers", strings: [gatewayIdentifier])
        device.set("name", "accessory-mqtt \(topics.gateway)")
        device.set("model", "accessory-mqtt gateway")
        var config = JSONObject()
        config.set("name", "Connectivity")
        config.set("unique_id", "\(gatewayIdentifier)_status")
        config.set("state_topic", topics.status)
        config.set("payload_on", Payloads.online)
        config.set("payload_off", Payloads.offline)
        config.set("device_class", "connectivity")
        config.set("entity_category", "diagnostic")
        config.set("device", device)
        return Publication(topic: topics.discovery("binary_sensor", object: "gateway"), payload: config.text)
    }

    /// The accessory's two entities.
    public func configs(for accessory: BridgedAccessory) -> [Publication] {
        let id = accessory.id
        var device = JSONObject()
        device.set("identifiers", strings: [deviceIdentifier(id)])
        device.set("name", accessory.name)
        device.set("model", "Bluetooth LE accessory")
        device.set("via_device", gatewayIdentifier)

        var tracker = entity(name: "Presence", uniqueID: "\(deviceIdentifier(id))_presence", accessory: id)
        tracker.set("value_template", "{{ value_json.state }}")
        tracker.set("payload_home", "home")
        tracker.set("payload_not_home", "not_home")
        tracker.set("source_type", "bluetooth_le")
        tracker.set("json_attributes_topic", topics.presence(id))
        tracker.set("device", device)

        var rssi = entity(name: "RSSI", uniqueID: "\(deviceIdentifier(id))_rssi", accessory: id)
        // Absent: no RSSI; Home Assistant takes "None" as unknown.
        rssi.set("value_template", "{{ value_json.rssi if value_json.rssi is defined else None }}")
        rssi.set("device_class", "signal_strength")
        rssi.set("unit_of_measurement", "dBm")
        rssi.set("state_class", "measurement")
        rssi.set("entity_category", "diagnostic")
        rssi.set("device", device)

        return [
            Publication(topic: topics.discovery("device_tracker", object: "\(id)_presence"), payload: tracker.text),
            Publication(topic: topics.discovery("sensor", object: "\(id)_rssi"), payload: rssi.text),
        ]
    }

    /// Empty retained configs: Home Assistant removes the entities.
    public func removals(for id: AccessoryID) -> [Publication] {
        [topics.discovery("device_tracker", object: "\(id)_presence"), topics.discovery("sensor", object: "\(id)_rssi")]
            .map { Publication(topic: $0, payload: "") }
    }

    private func entity(name: String, uniqueID: String, accessory id: AccessoryID) -> JSONObject {
        var object = JSONObject()
        object.set("name", name)
        object.set("unique_id", uniqueID)
        object.set("state_topic", topics.presence(id))
        object.set("availability_topic", topics.status)
        object.set("payload_available", Payloads.online)
        object.set("payload_not_available", Payloads.offline)
        return object
    }
}
