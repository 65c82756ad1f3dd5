import AccessoryPlatform
import AccessoryCommandLine

/// `accessoryctl requests`: what is waiting for the administrator.
struct Requests: AdminCommand {
    static let declaration = CommandDeclaration(
        "requests",
        abstract: "List the pending setup requests and their candidates.",
        discussion: """
            Each request shows its number, the app that asks and the items it asks for; below it, each \
            candidate accessoryd found: its number, the item it matches, the device's name, its Bluetooth \
            address or SSID, and the signal strength (RSSI, dBm). Approve one with \
            'accessoryctl approve REQUEST CANDIDATE'.
            """,
        options: [BusOptions.busAddress])

    var busAddress: String?

    init(_ line: ParsedCommandLine) {
        busAddress = line.value("bus-address")
    }

    func run(_ client: AdminClient) throws(AdminError) {
        StandardOutput.write(AdminFormat.requests(try client.requestsWithCandidates()))
    }
}
