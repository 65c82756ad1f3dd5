import AccessoryCore
import AccessoryPlatform
import AccessoryCommandLine

/// How long an approval window stays open: a systemd-style time span
/// (`90s`, `10m`, `1h`), whole seconds, at most a day.
struct WindowLength: Equatable {
    var seconds: UInt32

    /// A part of a second counts as a whole one.
    init(parsing text: String) throws(InvalidValue) {
        guard let span = TimeSpan.parse(text) else {
            throw InvalidValue("not a time span of at most a day; write e.g. 90s, 10m or 1h")
        }
        let (whole, fraction) = span.components
        let seconds = whole + (fraction > 0 ? 1 : 0)
        guard seconds >= 1, let value = UInt32(exactly: seconds) else {
            throw InvalidValue("an approval window lasts at least 1s")
        }
        self.seconds = value
    }
}

/// `accessoryctl allow --app APP --for DURATION`.
struct Allow: AdminCommand {
    static let declaration = CommandDeclaration(
        "allow",
        abstract: "Open an approval window: approve the app's first matching candidate by policy.",
        discussion: """
            While the window is open, the first candidate that matches one of the app's picker items is \
            approved without asking (unless a picker agent is registered). The window closes after the \
            duration, or with 'accessoryctl disallow'.
            """,
        options: [
            appOption,
            OptionDeclaration(
                "for", valueName: "duration",
                help: "How long the window stays open: 90s, 10m, 1h (a time span of at least 1s, at most a day).",
                isRequired: true),
            BusOptions.busAddress,
        ])

    static let appOption = OptionDeclaration("app", help: "The app's name, as in its manifest.", isRequired: true)

    var app: String
    var duration: WindowLength
    var busAddress: String?

    init(_ line: ParsedCommandLine) throws(CommandLineError) {
        app = try line.required("app")
        duration = try line.required("for") { (text: String) throws(InvalidValue) in try WindowLength(parsing: text) }
        busAddress = line.value("bus-address")
        if app.isEmpty { throw .rule("--app needs an app's name") }
    }

    func run(_ client: AdminClient) throws(AdminError) {
        try client.allow(app: app, seconds: duration.seconds)
        StandardOutput.write("approval window open for \(DisplayText.escaped(app)): \(duration.seconds)s\n")
    }
}

/// `accessoryctl disallow --app APP`.
struct Disallow: AdminCommand {
    static let declaration = CommandDeclaration(
        "disallow",
        abstract: "Close the app's approval window now.",
        options: [Allow.appOption, BusOptions.busAddress])

    var app: String
    var busAddress: String?

    init(_ line: ParsedCommandLine) throws(CommandLineError) {
        app = try line.required("app")
        busAddress = line.value("bus-address")
        if app.isEmpty { throw .rule("--app needs an app's name") }
    }

    func run(_ client: AdminClient) throws(AdminError) {
        try client.disallow(app: app)
        StandardOutput.write("approval window closed for \(DisplayText.escaped(app))\n")
    }
}
