import AccessoryCore
import AccessoryPlatform

/// The systemd unit a caller's process runs in, for the manifests' `Unit=`.
/// Read from /proc/PID/cgroup when accessoryd may see the process (a local
/// file, no round trip: the lab, a daemon started by hand); under the shipped
/// unit's `ProtectProc=invisible` other users' processes are hidden, so systemd
/// is asked over the bus without waiting: `GetUnitByPID`, then that unit's
/// `Id`. The caller's first call waits for the answer, at most `deadline`
/// (then it is refused and may call again: nothing is remembered); everyone
/// else is served meanwhile. Where no systemd is on the bus (a host or
/// container without systemd as PID 1) the unit is unknown, and says why.
///
/// By PID, not by pidfd: Debian 12's dbus-daemon (1.14) sends no `ProcessFD`
/// and its systemd (252) has no `GetUnitByPIDFD`. The caller's connection is
/// still open when this is asked, so its PID is still its own unless it
/// handed the connection on and exited.
final class CallerUnitLookup {
    /// What is known of a process's unit: its name, or why there is none.
    enum Unit: Equatable {
        case named(String)
        case unknown(why: String)

        var name: String? { if case .named(let name) = self { name } else { nil } }
        var unknownBecause: String? { if case .unknown(let why) = self { why } else { nil } }
    }
    typealias Answer = Result<Unit, BusError>
    /// The unit of a PID from its cgroup in /proc; nil when hidden or in none.
    typealias ReadProc = (UInt32) -> String?

    static let systemd = "org.freedesktop.systemd1"
    private let connection: BusConnection
    private let scheduler: any Scheduler
    private let readProc: ReadProc
    /// How long a caller waits for systemd before it is refused.
    let deadline: Duration
    /// Questions to systemd not answered yet (for tests and status).
    private(set) var outstanding = 0

    init(connection: BusConnection, scheduler: any Scheduler, deadline: Duration = .seconds(10),
         readProc: @escaping ReadProc = CallerCredentials.unit(ofProcess:)) {
        self.connection = connection
        self.scheduler = scheduler
        self.deadline = deadline
        self.readProc = readProc
    }

    /// One question: its bus call in flight, its deadline, and who waits.
    private final class Question {
        var pending: PendingBusCall?
        var timer: TimerToken?
        var then: ((Answer) -> Void)?
        init(_ then: @escaping (Answer) -> Void) { self.then = then }
    }

    /// Calls `then` with the unit of process `pid`: at once from /proc when
    /// it can be read there, otherwise when systemd answers (or has not,
    /// within `deadline`).
    func resolve(pid: UInt32?, _ then: @escaping (Answer) -> Void) {
        // PID 0 would ask systemd for accessoryd's own unit.
        guard let pid, pid != 0 else { return then(.success(.unknown(why: "the bus did not say which process the caller is"))) }
        if let unit = readProc(pid) { return then(.success(.named(unit))) }
        let question = Question(then)
        outstanding += 1
        question.timer = scheduler.at(scheduler.now.advanced(by: deadline)) { [weak self, deadline] in
            question.timer = nil
            question.pending?.cancel()
            self?.finish(question, .failure(Self.refusal(pid, "it did not answer within \(deadline)")))
        }
        ask(question, destination: Self.systemd, path: "/org/freedesktop/systemd1", interface: "org.freedesktop.systemd1.Manager",
            member: "GetUnitByPID", { _ = $0.append(pid) }) { [weak self] reply throws(BusError) in
            let path = try reply.readObjectPath()
            self?.ask(question, destination: Self.systemd, path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
                      { _ = $0.append("org.freedesktop.systemd1.Unit").append("Id") }) { [weak self] reply throws(BusError) in
                var id = ""
                try reply.readContainer("v", "s") { () throws(BusError) in id = try reply.readString() }
                self?.finish(question, .success(.named(id)))
            } failed: { [weak self] error in
                self?.finish(question, Self.unit(pid, failed: error))
            }
        } failed: { [weak self] error in
            self?.finish(question, Self.unit(pid, failed: error))
        }
    }

    /// One call of a question; a reply that cannot be read is a refusal.
    private func ask(_ question: Question, destination: String, path: String, interface: String, member: String,
                     _ build: (BusReply) -> Void, answered: @escaping (BusMessage) throws(BusError) -> Void,
                     failed: @escaping (BusError) -> Void) {
        guard question.then != nil else { return }
        do throws(BusError) {
            // sd-bus's own timeout only backs up the deadline; systemd is never activated.
            question.pending = try connection.callAsync(destination: destination, path: path, interface: interface, member: member,
                                                        timeout: deadline + .seconds(15), autoStart: false, build) { result in
                question.pending = nil
                switch result {
                case .success(let reply):
                    do throws(BusError) { try answered(reply) } catch { failed(error) }
                case .failure(let error): failed(error)
                }
            }
        } catch {
            failed(error)
        }
    }

    private func finish(_ question: Question, _ answer: Answer) {
        guard let then = question.then else { return }
        question.then = nil
        if let timer = question.timer { scheduler.cancel(timer) }
        question.timer = nil
        outstanding -= 1
        then(answer)
    }

    /// What an error from the bus or systemd means: no systemd on the bus
    /// and a process in no unit are answers (no unit); anything else refuses
    /// the call, so that a manifest's `Unit=` is never judged on a guess.
    static func unit(_ pid: UInt32, failed error: BusError) -> Answer {
        switch error.name {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            .success(.unknown(why: "systemd (\(systemd)) is not on the bus"))
        case "org.freedesktop.systemd1.NoUnitForPID":
            .success(.unknown(why: "systemd says process \(pid) is in no unit"))
        default:
            .failure(refusal(pid, "it answered \(error.name): \(error.message)"))
        }
    }

    static func refusal(_ pid: UInt32, _ why: String) -> BusError {
        BusError(name: "org.freedesktop.DBus.Error.AccessDenied",
                 message: "cannot tell who the caller is: systemd (\(systemd)) was asked which unit process \(pid) runs in and \(why); call again")
    }
}
