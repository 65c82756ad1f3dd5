import AccessoryCore
import AccessoryPlatform
import ArgumentParser

/// How long an approval window stays open: a systemd-style time span
/// (`90s`, `10m`, `1h`), whole seconds, at most a day.
struct WindowLength: Equatable {
    var seconds: UInt32

    /// A part of a second counts as a whole one.
    init(parsing text: String) throws {
        guard let span = TimeSpan.parse(text) else {
            throw ValidationError("not a time span of at most a day; write e.g. 90s, 10m or 1h")
        }
        let (whole, fraction) = span.components
        let seconds = whole + (fraction > 0 ? 1 : 0)
        guard seconds >= 1, let value = UInt32(exactly: seconds) else {
            throw ValidationError("an approval window lasts at least 1s")
        }
        self.seconds = value
    }
}

/// `accessoryctl allow --app APP --for DURATION`.
struct Allow: AdminCommand {
    static let configuration = CommandConfiguration(
        commandName: "allow",
        abstract: "Open an approval window: approve the app's first matching candidate by policy.",
        discussion: """
            While the window is open, the first candidate that matches one of the app's picker items is \
            approved without asking (unless a picker agent is registered). The window closes after the \
            duration, or with 'accessoryctl disallow'.
            """)

    @Option(help: ArgumentHelp("The app's name, as in its manifest.", valueName: "app"))
    var app: String

    @Option(name: .customLong("for"), help: ArgumentHelp(
        "How long the window stays open: 90s, 10m, 1h (a time span of at least 1s, at most a day).",
        valueName: "duration"), transform: WindowLength.init(parsing:))
    var duration: WindowLength

    @OptionGroup var bus: BusOptions

    func validate() throws {
        if app.isEmpty { throw ValidationError("--app needs an app's name") }
    }

    func run(_ client: AdminClient) throws(AdminError) {
        try client.allow(app: app, seconds: duration.seconds)
        StandardOutput.write("approval window open for \(DisplayText.escaped(app)): \(duration.seconds)s\n")
    }
}

/// `accessoryctl disallow --app APP`.
struct Disallow: AdminCommand {
    static let configuration = CommandConfiguration(
        commandName: "disallow",
        abstract: "Close the app's approval window now.")

    @Option(help: ArgumentHelp("The app's name, as in its manifest.", valueName: "app"))
    var app: String

    @OptionGroup var bus: BusOptions

    func validate() throws {
        if app.isEmpty { throw ValidationError("--app needs an app's name") }
    }

    func run(_ client: AdminClient) throws(AdminError) {
        try client.disallow(app: app)
        StandardOutput.write("approval window closed for \(DisplayText.escaped(app))\n")
    }
}
