import Foundation
import Glibc
import Testing
import Synchronization
import TestSupport

/// accessory-mqtt against a real mosquitto on loopback: the broker side of
/// the acceptance (last will, reconnect, password and TLS, and their
/// failures named), with no accessoryd (its bus is out of reach, which the
/// bridge survives).
@Suite(.serialized, .timeLimit(.minutes(3)))
struct BrokerTests {
    static func configuration(port: Int, gateway: String = "hall", extra: String = "") -> String {
        """
        [Broker]
        Host=127.0.0.1
        Port=\(port)
        KeepAlive=5s
        \(extra)

        [Bridge]
        Gateway=\(gateway)
        MinimumInterval=1s

        """
    }

    @Test func birthOnConnectAndTheLastWillWhenKilled() throws {
        let broker = try MosquittoBroker()
        let bridge = try BridgeProcess(configuration: Self.configuration(port: broker.port), busAddress: nil)
        // Two retained messages, published one after the other: wait for both.
        let online = try broker.retained {
            $0["accessory-mqtt/hall/status"] == "online" && $0["homeassistant/binary_sensor/accessory-mqtt_hall/gateway/config"] != nil
        }
        #expect(online["accessory-mqtt/hall/status"] == "online", "\(bridge.log)")
        #expect(online["homeassistant/binary_sensor/accessory-mqtt_hall/gateway/config"]?.contains(#""device_class":"connectivity""#) == true)

        bridge.kill(SIGKILL)
        let after = try broker.retained { $0["accessory-mqtt/hall/status"] == "offline" }
        #expect(after["accessory-mqtt/hall/status"] == "offline")
    }

    @Test func aCleanStopSaysOfflineToo() throws {
        let broker = try MosquittoBroker()
        let bridge = try BridgeProcess(configuration: Self.configuration(port: broker.port), busAddress: nil)
        _ = try broker.retained { $0["accessory-mqtt/hall/status"] == "online" }
        bridge.kill(SIGTERM)
        #expect(try broker.retained { $0["accessory-mqtt/hall/status"] == "offline" }["accessory-mqtt/hall/status"] == "offline")
    }

    @Test func theBrokerDownAtStartThenRestartedIsReconnectedAndGivenTheStateAgain() throws {
        let broker = try MosquittoBroker()
        broker.kill()
        // Down at start: the bridge says so and keeps trying.
        let bridge = try BridgeProcess(configuration: Self.configuration(port: broker.port), busAddress: nil)
        #expect(bridge.waitForLog("cannot connect to the broker at 127.0.0.1:\(broker.port)"), "\(bridge.log)")
        try broker.start()
        #expect(try broker.retained { $0["accessory-mqtt/hall/status"] == "online" }["accessory-mqtt/hall/status"] == "online", "\(bridge.log)")

        // Killed (retained messages lost with it: no persistence) and started again.
        broker.kill()
        #expect(bridge.waitForLog("lost the broker at 127.0.0.1:\(broker.port)"), "\(bridge.log)")
        try broker.start()
        let again = try broker.retained { $0["homeassistant/binary_sensor/accessory-mqtt_hall/gateway/config"] != nil }
        #expect(again["accessory-mqtt/hall/status"] == "online", "\(bridge.log)")
        #expect(again["homeassistant/binary_sensor/accessory-mqtt_hall/gateway/config"] != nil)
        #expect(bridge.isRunning)
    }

    /// A broker with a password file made by mosquitto_passwd, anonymous refused.
    static func passwordBroker() throws -> MosquittoBroker {
        let passwords = try ScratchDirectory("mosquitto-passwd")
        let file = passwords.path("passwd")
        let (status, output) = try MosquittoBroker.run("/usr/bin/mosquitto_passwd", ["-c", "-b", file, "hall", "correct horse"])
        #expect(status == 0, "\(output)")
        // The broker reads the file at start; the scratch directory may go after.
        let copy = try ScratchDirectory("mosquitto-passwd-copy")
        try FileManager.default.copyItem(atPath: file, toPath: copy.path("passwd"))
        _ = passwordsKept.withLock { $0.append(copy) }
        return try MosquittoBroker(settings: "allow_anonymous false\npassword_file \(copy.path("passwd"))")
    }
    static let passwordsKept = Mutex<[ScratchDirectory]>([])

    @Test func passwordAuthenticationFromTheCredentialsFile() throws {
        let broker = try Self.passwordBroker()
        let bridge = try BridgeProcess(
            configuration: Self.configuration(port: broker.port, extra: "CredentialsFile=@DIR@/credentials"), busAddress: nil,
            files: ["credentials": "[Credentials]\nUsername=hall\nPassword=correct horse\n"])
        let login = ["-u", "hall", "-P", "correct horse"]
        let retained = try broker.retained(until: { $0["accessory-mqtt/hall/status"] == "online" }, extra: login)
        #expect(retained["accessory-mqtt/hall/status"] == "online", "\(bridge.log)")
        #expect(!bridge.log.contains("correct horse"))
    }

    @Test func aWrongPasswordIsNamedAndRetriedWithBackoff() throws {
        let broker = try Self.passwordBroker()
        let bridge = try BridgeProcess(
            configuration: Self.configuration(port: broker.port, extra: "CredentialsFile=@DIR@/credentials"), busAddress: nil,
            files: ["credentials": "[Credentials]\nUsername=hall\nPassword=wrong\n"])
        #expect(bridge.waitForLog("the broker at 127.0.0.1:\(broker.port) refused the connection: Connection Refused: not authorised"),
                "\(bridge.log)")
        #expect(bridge.waitForLog("retrying in 2.0 seconds"), "\(bridge.log)")
        #expect(!bridge.log.contains("wrong"))
        #expect(bridge.isRunning)
    }

    /// A CA, and a server certificate it signs for 127.0.0.1, made with openssl.
    static func certificates(_ directory: ScratchDirectory, name: String = "ca") throws {
        let script = """
            cd '\(directory.path)'
            openssl req -x509 -newkey rsa:2048 -nodes -keyout \(name).key -out \(name).pem -days 2 -subj '/CN=Test CA \(name)' 2>&1
            openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj '/CN=127.0.0.1' 2>&1
            printf 'subjectAltName=IP:127.0.0.1\\n' > san.ext
            openssl x509 -req -in server.csr -CA \(name).pem -CAkey \(name).key -CAcreateserial -out server.pem -days 2 -extfile san.ext 2>&1
            chmod 644 server.key
            """
        let (status, output) = try MosquittoBroker.run("/bin/sh", ["-euc", script])
        #expect(status == 0, "\(output)")
    }

    @Test func tlsWithATestCAWorksAndAnUnknownCAIsNamed() throws {
        let pki = try ScratchDirectory("mqtt-pki")
        try Self.certificates(pki)
        let broker = try MosquittoBroker(settings: """
            allow_anonymous true
            cafile \(pki.path("ca.pem"))
            certfile \(pki.path("server.pem"))
            keyfile \(pki.path("server.key"))
            """)
        let bridge = try BridgeProcess(
            configuration: Self.configuration(port: broker.port, extra: "CAFile=\(pki.path("ca.pem"))"), busAddress: nil)
        let tls = ["--cafile", pki.path("ca.pem")]
        let retained = try broker.retained(until: { $0["accessory-mqtt/hall/status"] == "online" }, extra: tls)
        #expect(retained["accessory-mqtt/hall/status"] == "online", "\(bridge.log)")
        #expect(bridge.log.contains("connected to the broker at 127.0.0.1:\(broker.port) (TLS)"))

        // Another CA, which did not sign the broker's certificate.
        let other = try ScratchDirectory("mqtt-pki-other")
        try Self.certificates(other, name: "other")
        let refused = try BridgeProcess(
            configuration: Self.configuration(port: broker.port, gateway: "attic", extra: "CAFile=\(other.path("other.pem"))"),
            busAddress: nil)
        #expect(refused.waitForLog("certificate verify failed"), "\(refused.log)")
        #expect(refused.waitForLog("cannot connect to the broker at 127.0.0.1:\(broker.port) (TLS)"), "\(refused.log)")
        #expect(try broker.retained(extra: tls)["accessory-mqtt/attic/status"] == nil)
    }
}
