import AccessoryCore

/// `/etc/accessory-mqtt/accessory-mqtt.conf`: where the broker is, how to
/// reach it safely, and how to name what is published. Unit-file syntax
/// (`KeyFile`); every error names the file, the line and the key.
public struct BridgeConfiguration: Hashable, Sendable {
    public static let defaultPath = "/etc/accessory-mqtt/accessory-mqtt.conf"

    public var host = "localhost"
    /// 1883, or 8883 when TLS is on, unless given.
    public var port: Int?
    public var effectivePort: Int { port ?? (caFile == nil ? 1883 : 8883) }
    /// Empty: `accessory-mqtt-<gateway>`.
    public var clientID: String?
    public var keepAlive: Duration = .seconds(60)
    /// TLS is on when a CA file is given.
    public var caFile: String?
    public var certificateFile: String?
    public var keyFile: String?
    /// A file of its own with `[Credentials]` `Username=` and `Password=`,
    /// readable only by the service's user.
    public var credentialsFile: String?

    /// This gateway's name in every topic: what keeps several gateways apart on one broker.
    public var gateway: String
    public var topicPrefix = "accessory-mqtt"
    public var discoveryPrefix = "homeassistant"
    /// A value that keeps changing (RSSI, advertisement data) is published
    /// at most once per this span per accessory; a change of presence at once.
    public var minimumInterval: Duration = .seconds(30)
    public static let defaultQueueLimit = 256
    /// How many withdrawn grants wait for the broker while it is away (their
    /// retained topics are emptied on reconnection); past it the oldest is dropped.
    public var queueLimit = defaultQueueLimit

    public var effectiveClientID: String { clientID ?? "accessory-mqtt-\(gateway)" }

    public init(gateway: String) { self.gateway = gateway }

    /// `defaultGateway`: the host's name, used when the file names none.
    public init(parsing bytes: some Collection<UInt8>, source: String, defaultGateway: String) throws(KeyFileError) {
        let file = try KeyFile(parsing: bytes, source: source)
        self.init(gateway: "")
        var gateway: String?
        var seen = Set<String>()
        for header in file.sectionHeaders where header.name != "Broker" && header.name != "Bridge" {
            throw KeyFileError(source: source, line: header.line, reason: .unknownSection(header.name))
        }
        for entry in file.entries {
            func invalid(_ expected: String) -> KeyFileError {
                KeyFileError(source: source, line: entry.line, reason: .invalidValue(
                    section: entry.section, key: entry.key, value: entry.value, expected: expected))
            }
            guard seen.insert(entry.section + "." + entry.key).inserted else {
                throw KeyFileError(source: source, line: entry.line, reason: .duplicateKey(section: entry.section, key: entry.key))
            }
            let value = entry.value
            let path: String? = value.isEmpty ? nil : value
            switch (entry.section, entry.key) {
            case ("Broker", "Host"):
                guard !value.isEmpty, value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.:".contains($0)) }) else {
                    throw invalid("a host name or address")
                }
                host = value
            case ("Broker", "Port"):
                guard let number = Int(value), (1...65535).contains(number) else { throw invalid("a port, 1 to 65535") }
                port = number
            case ("Broker", "ClientID"):
                guard value.utf8.count <= 23 * 4, value.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                    throw invalid("printable ASCII without spaces")
                }
                clientID = value.isEmpty ? nil : value
            case ("Broker", "KeepAlive"):
                guard let span = TimeSpan.parse(value), span >= .seconds(5), span <= .seconds(65535) else {
                    throw invalid("a time span from 5s to 65535s")
                }
                keepAlive = span
            case ("Broker", "CAFile"): caFile = try absolute(path, invalid)
            case ("Broker", "CertificateFile"): certificateFile = try absolute(path, invalid)
            case ("Broker", "KeyFile"): keyFile = try absolute(path, invalid)
            case ("Broker", "CredentialsFile"): credentialsFile = try absolute(path, invalid)
            case ("Bridge", "Gateway"):
                guard TopicLayout.isValidName(value) else { throw invalid("1 to 64 of A-Z a-z 0-9 _ -") }
                gateway = value
            case ("Bridge", "TopicPrefix"):
                guard TopicLayout.isValidPrefix(value) else { throw invalid("topic levels without + # or empty levels") }
                topicPrefix = value
            case ("Bridge", "DiscoveryPrefix"):
                guard TopicLayout.isValidPrefix(value) else { throw invalid("topic levels without + # or empty levels") }
                discoveryPrefix = value
            case ("Bridge", "MinimumInterval"):
                guard let span = TimeSpan.parse(value), span >= .seconds(1) else { throw invalid("a time span of 1s or more") }
                minimumInterval = span
            case ("Bridge", "QueueLimit"):
                guard let number = Int(value), (1...65536).contains(number) else { throw invalid("a number, 1 to 65536") }
                queueLimit = number
            default:
                throw KeyFileError(source: source, line: entry.line, reason: .unknownKey(section: entry.section, key: entry.key))
            }
        }
        if (certificateFile == nil) != (keyFile == nil) {
            throw KeyFileError(source: source, line: nil, reason: .invalidSection(
                section: "Broker", reason: "CertificateFile= and KeyFile= go together"))
        }
        if certificateFile != nil, caFile == nil {
            throw KeyFileError(source: source, line: nil, reason: .invalidSection(
                section: "Broker", reason: "a client certificate needs TLS: set CAFile="))
        }
        let fallback = String(defaultGateway.prefix(while: { $0 != "." }))
        guard let name = gateway ?? (TopicLayout.isValidName(fallback) ? fallback : nil) else {
            throw KeyFileError(source: source, line: nil, reason: .missingKey(section: "Bridge", key: "Gateway"))
        }
        self.gateway = name
    }

    private func absolute(_ path: String?, _ invalid: (String) -> KeyFileError) throws(KeyFileError) -> String? {
        guard let path else { return nil }
        guard path.hasPrefix("/") else { throw invalid("an absolute path") }
        return path
    }
}

/// The broker account, from `CredentialsFile=`: kept apart from the
/// configuration so that file can stay world-readable.
public struct BrokerCredentials: Hashable, Sendable {
    public var username: String
    public var password: String?

    public init(username: String, password: String?) {
        self.username = username
        self.password = password
    }

    public init(parsing bytes: some Collection<UInt8>, source: String) throws(KeyFileError) {
        let file = try KeyFile(parsing: bytes, source: source)
        var username: String?
        var password: String?
        for header in file.sectionHeaders where header.name != "Credentials" {
            throw KeyFileError(source: source, line: header.line, reason: .unknownSection(header.name))
        }
        for entry in file.entries {
            switch entry.key {
            case "Username" where username == nil: username = entry.value
            case "Password" where password == nil: password = entry.value
            case "Username", "Password":
                throw KeyFileError(source: source, line: entry.line, reason: .duplicateKey(section: entry.section, key: entry.key))
            default:
                throw KeyFileError(source: source, line: entry.line, reason: .unknownKey(section: entry.section, key: entry.key))
            }
        }
        guard let username, !username.isEmpty else {
            throw KeyFileError(source: source, line: nil, reason: .missingKey(section: "Credentials", key: "Username"))
        }
        self.init(username: username, password: password)
    }

    /// The password never appears in a log line or an error.
    public var redacted: String { "user \(username)" + (password == nil ? "" : ", password given") }
}
