import AccessoryCore
import AccessoryMQTT
import Testing

/// The discovery configs against Home Assistant's documented MQTT schema
/// (MQTT discovery; the device_tracker, sensor and binary_sensor platforms).
@Suite struct HomeAssistantDiscoveryTests {
    let discovery = HomeAssistantDiscovery(topics: PayloadTests.topics)
    let sensor = BridgedAccessory(id: PayloadTests.sensorID, name: "Lab Sensor", isPresent: true, rssi: -52)

    @Test func eachAccessoryIsADeviceWithATrackerAndAnRSSISensorViaTheGateway() {
        let configs = discovery.configs(for: sensor)
        #expect(configs.map(\.topic) == [
            "homeassistant/device_tracker/accessory-mqtt_hall/31a2429721ee04be_presence/config",
            "homeassistant/sensor/accessory-mqtt_hall/31a2429721ee04be_rssi/config",
        ])
        #expect(configs.allSatisfy { $0.retain })
        let device = #"{"identifiers":["accessory-mqtt_hall_31a2429721ee04be"],"name":"Lab Sensor","model":"Bluetooth LE accessory","via_device":"accessory-mqtt_hall"}"#
        let availability = #""availability_topic":"accessory-mqtt/hall/status","payload_available":"online","payload_not_available":"offline""#
        #expect(configs[0].payload == #"{"name":"Presence","unique_id":"accessory-mqtt_hall_31a2429721ee04be_presence","#
            + #""state_topic":"accessory-mqtt/hall/accessory/31a2429721ee04be/presence","# + availability
            + #","value_template":"{{ value_json.state }}","payload_home":"home","payload_not_home":"not_home","#
            + #""source_type":"bluetooth_le","json_attributes_topic":"accessory-mqtt/hall/accessory/31a2429721ee04be/presence","#
            + #""device":"# + device + "}")
        #expect(configs[1].payload == #"{"name":"RSSI","unique_id":"accessory-mqtt_hall_31a2429721ee04be_rssi","#
            + #""state_topic":"accessory-mqtt/hall/accessory/31a2429721ee04be/presence","# + availability
            + #","value_template":"{{ value_json.rssi if value_json.rssi is defined else None }}","#
            + #""device_class":"signal_strength","unit_of_measurement":"dBm","state_class":"measurement","#
            + #""entity_category":"diagnostic","device":"# + device + "}")
    }

    @Test func theGatewayIsADeviceOfItsOwnOnTheStatusTopic() {
        let config = discovery.gatewayConfig
        #expect(config.topic == "homeassistant/binary_sensor/accessory-mqtt_hall/gateway/config")
        #expect(config.payload.contains(#""state_topic":"accessory-mqtt/hall/status","payload_on":"online","payload_off":"offline","device_class":"connectivity""#))
        #expect(config.payload.contains(#""identifiers":["accessory-mqtt_hall"]"#))
    }

    @Test func removalEmptiesTheRetainedConfigs() {
        let removals = discovery.removals(for: sensor.id)
        #expect(removals.map(\.topic) == discovery.configs(for: sensor).map(\.topic))
        #expect(removals.allSatisfy { $0.payload.isEmpty && $0.retain })
    }
}
