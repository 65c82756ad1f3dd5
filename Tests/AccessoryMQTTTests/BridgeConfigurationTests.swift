import AccessoryCore
import AccessoryMQTT
import Testing

/// accessory-mqtt.conf and its credentials file: defaults, and refusals that
/// name the file, the line and the key.
@Suite struct BridgeConfigurationTests {
    func parse(_ text: String, host: String = "gw1.example") throws(KeyFileError) -> BridgeConfiguration {
        try BridgeConfiguration(parsing: Array(text.utf8), source: "/etc/accessory-mqtt/accessory-mqtt.conf", defaultGateway: host)
    }

    @Test func anEmptyFileTakesTheDefaultsAndTheHostsName() throws {
        let configuration = try parse("")
        #expect(configuration.host == "localhost")
        #expect(configuration.effectivePort == 1883)
        #expect(configuration.gateway == "gw1")
        #expect(configuration.effectiveClientID == "accessory-mqtt-gw1")
        #expect(configuration.topicPrefix == "accessory-mqtt")
        #expect(configuration.discoveryPrefix == "homeassistant")
        #expect(configuration.minimumInterval == .seconds(30))
        #expect(configuration.caFile == nil)
    }

    @Test func everyKeyIsRead() throws {
        let configuration = try parse("""
            [Broker]
            Host=mqtt.home.arpa
            ClientID=hall-bridge
            KeepAlive=2min
            CAFile=/etc/ssl/certs/home-ca.pem
            CertificateFile=/etc/accessory-mqtt/client.pem
            KeyFile=/etc/accessory-mqtt/client.key
            CredentialsFile=/etc/accessory-mqtt/credentials

            [Bridge]
            Gateway=hall
            TopicPrefix=home/ble
            DiscoveryPrefix=ha
            MinimumInterval=10s
            QueueLimit=16
            """)
        #expect(configuration.host == "mqtt.home.arpa")
        #expect(configuration.effectivePort == 8883)
        #expect(configuration.effectiveClientID == "hall-bridge")
        #expect(configuration.keepAlive == .seconds(120))
        #expect(configuration.caFile == "/etc/ssl/certs/home-ca.pem")
        #expect(configuration.certificateFile == "/etc/accessory-mqtt/client.pem")
        #expect(configuration.keyFile == "/etc/accessory-mqtt/client.key")
        #expect(configuration.credentialsFile == "/etc/accessory-mqtt/credentials")
        #expect(configuration.gateway == "hall")
        #expect(TopicLayout(configuration).status == "home/ble/hall/status")
        #expect(configuration.minimumInterval == .seconds(10))
        #expect(configuration.queueLimit == 16)
    }

    @Test(arguments: [
        ("[Broker]\nPort=0", "/etc/accessory-mqtt/accessory-mqtt.conf:2: invalid value '0' for key 'Port' in [Broker]: expected a port, 1 to 65535"),
        ("[Broker]\nHost=\n", "/etc/accessory-mqtt/accessory-mqtt.conf:2: invalid value '' for key 'Host' in [Broker]: expected a host name or address"),
        ("\n[Bridge]\nGateway=hall/kitchen", "/etc/accessory-mqtt/accessory-mqtt.conf:3: invalid value 'hall/kitchen' for key 'Gateway' in [Bridge]: expected 1 to 64 of A-Z a-z 0-9 _ -"),
        ("[Bridge]\nTopicPrefix=home/#", "/etc/accessory-mqtt/accessory-mqtt.conf:2: invalid value 'home/#' for key 'TopicPrefix' in [Bridge]: expected topic levels without + # or empty levels"),
        ("[Bridge]\nTopicPrefix=home//ble", "/etc/accessory-mqtt/accessory-mqtt.conf:2: invalid value 'home//ble' for key 'TopicPrefix' in [Bridge]: expected topic levels without + # or empty levels"),
        ("[Bridge]\nMinimumInterval=100ms", "/etc/accessory-mqtt/accessory-mqtt.conf:2: invalid value '100ms' for key 'MinimumInterval' in [Bridge]: expected a time span of 1s or more"),
        ("[Bridge]\nQueueLimit=0", "/etc/accessory-mqtt/accessory-mqtt.conf:2: invalid value '0' for key 'QueueLimit' in [Bridge]: expected a number, 1 to 65536"),
        ("[Broker]\nCAFile=ca.pem", "/etc/accessory-mqtt/accessory-mqtt.conf:2: invalid value 'ca.pem' for key 'CAFile' in [Broker]: expected an absolute path"),
        ("[Broker]\nPassword=secret", "/etc/accessory-mqtt/accessory-mqtt.conf:2: unknown key 'Password' in [Broker]"),
        ("[Broker]\nPort=1883\nPort=1884", "/etc/accessory-mqtt/accessory-mqtt.conf:3: key 'Port' given twice in [Broker]"),
        ("[MQTT]\n", "/etc/accessory-mqtt/accessory-mqtt.conf:1: unknown section [MQTT]"),
        ("[Broker]\nCertificateFile=/c.pem", "/etc/accessory-mqtt/accessory-mqtt.conf: [Broker]: CertificateFile= and KeyFile= go together"),
        ("[Broker]\nCertificateFile=/c.pem\nKeyFile=/c.key", "/etc/accessory-mqtt/accessory-mqtt.conf: [Broker]: a client certificate needs TLS: set CAFile="),
    ])
    func aBadValueIsRefusedWithItsPlace(text: String, message: String) {
        #expect(throws: (any Error).self) { try parse(text) }
        do { _ = try parse(text) } catch { #expect(error.description == message) }
    }

    @Test func aHostNameThatCannotBeAGatewayNameNeedsGateway() {
        do {
            _ = try parse("", host: "my gateway")
            Issue.record("accepted")
        } catch {
            #expect(error.description == "/etc/accessory-mqtt/accessory-mqtt.conf: missing key 'Gateway' in [Bridge]")
        }
    }

    @Test func credentialsAreReadAndNeverShown() throws {
        let credentials = try BrokerCredentials(parsing: Array("[Credentials]\nUsername=hall\nPassword=s3cret\n".utf8), source: "/c")
        #expect(credentials == BrokerCredentials(username: "hall", password: "s3cret"))
        #expect(!credentials.redacted.contains("s3cret"))
        do {
            _ = try BrokerCredentials(parsing: Array("[Credentials]\nPassword=s3cret\n".utf8), source: "/c")
            Issue.record("accepted")
        } catch {
            #expect(error.description == "/c: missing key 'Username' in [Credentials]")
        }
        do {
            _ = try BrokerCredentials(parsing: Array("[Credentials]\nUsername=a\nToken=x\n".utf8), source: "/c")
            Issue.record("accepted")
        } catch {
            #expect(error.description == "/c:3: unknown key 'Token' in [Credentials]")
        }
    }
}
