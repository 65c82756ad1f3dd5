import AccessoryCore
import AccessoryPlatform
import Synchronization

/// User names by uid from the name service (NSS: /etc/passwd, or LDAP, sssd
/// …), asked on a worker thread and remembered, so that a slow or hung name
/// service never holds up the loop: a caller whose uid is not known yet waits
/// for its lookup (at most `deadline`, then it is refused and may call again),
/// everyone else is served meanwhile. One lookup per uid at a time; at most
/// `maximumRunning` at once (a hung name service keeps its threads), past
/// which a new uid is refused at once rather than given another thread.
final class UserNameLookup {
    typealias LookUp = @Sendable (UInt32) -> String?
    typealias Answer = Result<String?, BusError>

    private let scheduler: any Scheduler
    private let lookUp: LookUp
    /// How long a caller waits for its uid's name before it is refused.
    let deadline: Duration
    let capacity: Int
    let maximumRunning: Int
    /// Names found (nil: the name service knows no such uid), bounded by `capacity`.
    private var names: [UInt32: String?] = [:]
    /// Callers waiting for a uid's lookup, and the timer that ends their wait.
    private var waiting: [UInt32: [(Answer) -> Void]] = [:]
    private var timers: [UInt32: TimerToken] = [:]
    /// Uids being looked up on a worker now (hung ones too, until they return).
    private(set) var running: Set<UInt32> = []
    /// What the workers found, taken on the loop when the wake-up fires.
    private final class Finished: Sendable {
        let found = Mutex<[(uid: UInt32, name: String?)]>([])
    }
    private let finished = Finished()
    private let wakeup: EventLoopWakeup

    /// `loop` delivers the workers' answers; `scheduler` (the loop unless a
    /// test moves time itself) arms the deadlines.
    init(loop: EventLoop, scheduler: (any Scheduler)? = nil, deadline: Duration = .seconds(10), capacity: Int = 4096,
         maximumRunning: Int = 8, lookUp: @escaping LookUp = UnixUser.name(of:)) throws(SystemError) {
        self.scheduler = scheduler ?? loop
        self.lookUp = lookUp
        self.deadline = deadline
        self.capacity = capacity
        self.maximumRunning = maximumRunning
        wakeup = try EventLoopWakeup()
        try loop.watch(wakeup) { [weak self] in self?.takeFinished() }
    }

    /// The name of `uid` if it was looked up already (`.some(nil)`: no such user).
    func known(_ uid: UInt32) -> String?? { names[uid] }

    /// Calls `then` with the name of `uid`: at once when known, otherwise when
    /// the worker finds it, or with a refusal once `deadline` has passed.
    func resolve(_ uid: UInt32, _ then: @escaping (Answer) -> Void) {
        if let name = names[uid] { return then(.success(name)) }
        if waiting[uid] != nil {
            waiting[uid]?.append(then)
            return
        }
        if !running.contains(uid) {
            guard running.count < maximumRunning else {
                return then(.failure(refusal(uid, "\(running.count) lookups are outstanding already")))
            }
            let lookUp = lookUp, finished = finished, wakeup = wakeup
            do throws(SystemError) {
                try DetachedThread.start {
                    let name = lookUp(uid)
                    finished.found.withLock { $0.append((uid, name)) }
                    wakeup.wake()
                }
            } catch {
                return then(.failure(refusal(uid, "no thread to ask it on: \(error)")))
            }
            running.insert(uid)
        }
        waiting[uid] = [then]
        timers[uid] = scheduler.at(scheduler.now.advanced(by: deadline)) { [weak self] in self?.timedOut(uid) }
    }

    private func takeFinished() {
        let found: [(uid: UInt32, name: String?)] = finished.found.withLock { found in
            defer { found.removeAll() }
            return found
        }
        for (uid, name) in found {
            running.remove(uid)
            if names.count >= capacity { names.removeAll() }
            names[uid] = .some(name)
            if let timer = timers.removeValue(forKey: uid) { scheduler.cancel(timer) }
            let answer: Answer = .success(name)
            for then in waiting.removeValue(forKey: uid) ?? [] { then(answer) }
        }
    }

    /// The name service did not answer in time: the waiting callers are
    /// refused; the lookup goes on, and what it finds is remembered.
    private func timedOut(_ uid: UInt32) {
        timers[uid] = nil
        let error = refusal(uid, "it did not answer within \(deadline)")
        for then in waiting.removeValue(forKey: uid) ?? [] { then(.failure(error)) }
    }

    private func refusal(_ uid: UInt32, _ why: String) -> BusError {
        BusError(name: "org.freedesktop.DBus.Error.AccessDenied",
                 message: "cannot tell who the caller is: the name service was asked for the user name of uid \(uid) and \(why); call again")
    }

    /// On reload: users renamed since are looked up again.
    func forget() { names.removeAll() }
}
