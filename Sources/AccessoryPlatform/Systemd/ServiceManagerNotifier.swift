import CSystemd

/// Tells systemd (or whatever set NOTIFY_SOCKET) how the service is doing,
/// through sd_notify. Without NOTIFY_SOCKET every call is a no-op.
public struct ServiceManagerNotifier: Sendable {
    public init() {}

    /// READY=1, with a STATUS= line for `systemctl status`.
    public func ready(status: String) { send(["READY=1", "STATUS=\(status)"]) }

    public func status(_ text: String) { send(["STATUS=\(text)"]) }

    /// RELOADING=1 while the configuration is re-read after SIGHUP; `ready` ends it.
    public func reloading() { send(["RELOADING=1", "STATUS=Reloading configuration"]) }

    public func stopping() { send(["STOPPING=1", "STATUS=Stopping"]) }

    private func send(_ assignments: [String]) {
        // Newlines inside a value would start a new assignment.
        let clean = assignments.map { String($0.map { $0 == "\n" ? " " : $0 }) }
        _ = sd_notify(0, clean.joined(separator: "\n"))
    }
}
