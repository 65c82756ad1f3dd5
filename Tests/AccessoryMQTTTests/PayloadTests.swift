import AccessoryCore
import AccessoryMQTT
import Testing

/// Topics and payloads, as accessory-mqtt(8) documents them.
@Suite struct PayloadTests {
    static let topics = TopicLayout(prefix: "accessory-mqtt", gateway: "hall")
    static let sensorID = AccessoryID(0x31A2_4297_21EE_04BE)

    @Test func topicsCarryTheGatewaysName() {
        let topics = Self.topics
        #expect(topics.status == "accessory-mqtt/hall/status")
        #expect(topics.presence(Self.sensorID) == "accessory-mqtt/hall/accessory/31a2429721ee04be/presence")
        #expect(topics.advertisement(Self.sensorID) == "accessory-mqtt/hall/accessory/31a2429721ee04be/advertisement")
        #expect(topics.state(Self.sensorID) == "accessory-mqtt/hall/accessory/31a2429721ee04be/state")
        #expect(topics.discovery("sensor", object: "x") == "homeassistant/sensor/accessory-mqtt_hall/x/config")
        let kitchen = TopicLayout(prefix: "accessory-mqtt", gateway: "kitchen")
        #expect(kitchen.presence(Self.sensorID) != topics.presence(Self.sensorID))
        #expect(kitchen.discovery("sensor", object: "x") != topics.discovery("sensor", object: "x"))
    }

    @Test func presenceSaysHomeWithTheGatewayAndRSSI() {
        var sensor = BridgedAccessory(id: Self.sensorID, name: "Lab Sensor", isPresent: true, rssi: -52)
        #expect(Payloads.presence(sensor, gateway: "hall") == #"{"state":"home","gateway":"hall","rssi":-52}"#)
        sensor.isPresent = false
        #expect(Payloads.presence(sensor, gateway: "hall") == #"{"state":"not_home","gateway":"hall"}"#)
        sensor.isPresent = nil
        #expect(Payloads.presence(sensor, gateway: "hall") == nil)
    }

    @Test func advertisementFieldsAreDecodedFromTheADStructures() {
        // Flags; complete name "Lab Sensor"; TX power -4; service data 180F = 0x64;
        // manufacturer 0xFFFF data 01 02; then a structure cut short (dropped).
        let data: [UInt8] = [0x02, 0x01, 0x06]
            + [0x0B, 0x09] + Array("Lab Sensor".utf8)
            + [0x02, 0x0A, 0xFC]
            + [0x04, 0x16, 0x0F, 0x18, 0x64]
            + [0x05, 0xFF, 0xFF, 0xFF, 0x01, 0x02]
            + [0x09, 0xFF, 0x4C]
        let fields = AdvertisementFields(adStructures: data)
        #expect(fields.localName == "Lab Sensor")
        #expect(fields.txPower == -4)
        #expect(fields.serviceData.map { "\($0.uuid)=\($0.hex)" } == ["180F=64"])
        #expect(fields.manufacturerData.map { "\($0.company)=\($0.hex)" } == ["ffff=0102"])
        let sensor = BridgedAccessory(id: Self.sensorID, name: "Lab Sensor", isPresent: true, rssi: -60, advertisement: fields)
        #expect(Payloads.advertisement(sensor, gateway: "hall")
            == #"{"gateway":"hall","rssi":-60,"local_name":"Lab Sensor","tx_power":-4,"service_data":{"180F":"64"},"manufacturer_data":{"ffff":"0102"}}"#)
    }

    @Test func textIsEscapedInJSON() {
        let sensor = BridgedAccessory(id: Self.sensorID, name: "Lab \"Sensor\"\n\u{1}\\")
        #expect(Payloads.state(sensor, gateway: "hall")
            == #"{"id":"31a2429721ee04be","name":"Lab \"Sensor\"\n\u0001\\","state":"authorized","gateway":"hall"}"#)
    }

    @Test func aNameThatIsNotUTF8IsLeftOut() {
        let fields = AdvertisementFields(adStructures: [0x03, 0x09, 0xFF, 0xFE])
        #expect(fields.localName == nil)
    }
}
