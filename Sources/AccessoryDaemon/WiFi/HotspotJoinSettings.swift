import AccessoryCore
import AccessoryPlatform
import AccessoryRadios

/// Where the joiner finds wpa_supplicant, the DHCP client and its own directories.
public struct HotspotJoinSettings: Sendable {
    /// wpa_supplicant's ctrl_interface directory; the socket is `<this>/<interface>`.
    public var controlDirectory: String
    /// For the client sockets, the DHCP client's pid and address files.
    public var runtimeDirectory: String
    /// For the crash-recovery records.
    public var stateDirectory: String
    public var dhcpProgram: String
    public var networkManagerDirectory: String
    /// The bus NetworkManager is on; nil for the system bus.
    public var networkManagerBusAddress: String? = nil
    /// How long one call to NetworkManager may go unanswered (it answers
    /// within milliseconds, a loaded board within seconds) before the join
    /// ends with `failed` naming it. Adding the profile waits for the join's whole timeout.
    public var networkManagerRequestTimeout: Duration = .seconds(10)
    /// The whole join through NetworkManager, from the request to an address:
    /// a backstop, as NetworkManager bounds association (25 s) and DHCP (45 s)
    /// itself and then says why; under the client library's 90 s for `JoinHotspot`.
    public var networkManagerJoinTimeout: Duration = .seconds(75)
    public var policy: HotspotJoinPolicy
    /// How long one request to wpa_supplicant may go unanswered before the
    /// join ends with `failed` naming it (it answers within milliseconds).
    public var requestTimeout: Duration

    public init(
        controlDirectory: String = "/run/wpa_supplicant", runtimeDirectory: String = DaemonDirectories.runtime,
        stateDirectory: String = DaemonDirectories.state, dhcpProgram: String = DHCPClientProcess.defaultProgram,
        networkManagerDirectory: String = NetworkManagerDeviceState.defaultDirectory,
        policy: HotspotJoinPolicy = HotspotJoinPolicy(), requestTimeout: Duration = .seconds(3)
    ) {
        self.controlDirectory = controlDirectory
        self.runtimeDirectory = runtimeDirectory
        self.stateDirectory = stateDirectory
        self.dhcpProgram = dhcpProgram
        self.networkManagerDirectory = networkManagerDirectory
        self.policy = policy
        self.requestTimeout = requestTimeout
    }
}
