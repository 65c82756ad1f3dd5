import CSystemd
import Glibc

/// Follows whether a well-known name (bluetoothd's `org.bluez`) has an
/// owner on the bus, without waiting: the match for its NameOwnerChanged is
/// installed first, then GetNameOwner is asked asynchronously, so no change
/// falls between the two; an answer that comes after a change is older than
/// it and ignored. Dropping the watch removes the match.
public final class BusNameWatch {
    public let name: String
    private let handler: (Bool) -> Void
    private var slots: [OpaquePointer] = []
    /// A NameOwnerChanged arrived: the first answer is stale by then.
    private var changeSeen = false

    /// `handler(hasOwner)` is called with the answer, then on every change.
    public init(_ name: String, on connection: BusConnection, _ handler: @escaping (Bool) -> Void) throws(SystemError) {
        self.name = name
        self.handler = handler
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        var match: OpaquePointer?
        let rule = "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
            + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(name)'"
        var result = sd_bus_add_match(connection.bus, &match, rule, { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            let watch = Unmanaged<BusNameWatch>.fromOpaque(userdata).takeUnretainedValue()
            let signal = BusMessage(message)
            guard let name = try? signal.readString(), name == watch.name, (try? signal.readString()) != nil,
                let owner = try? signal.readString()
            else { return 0 }
            watch.changeSeen = true
            watch.handler(!owner.isEmpty)
            return 0
        }, userdata)
        guard result >= 0, let match else { throw SystemError(operation: "sd_bus_add_match(NameOwnerChanged \(name))", errno: -result) }
        slots.append(match)
        var message: OpaquePointer?
        result = sd_bus_message_new_method_call(
            connection.bus, &message, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner")
        guard result >= 0, let message else {
            throw SystemError(operation: "sd_bus_message_new_method_call(NameHasOwner)", errno: -result)
        }
        let request = BusReply(message)
        request.append(name)
        var call: OpaquePointer?
        result = sd_bus_call_async(connection.bus, &call, message, { reply, userdata, _ in
            guard let reply, let userdata else { return 0 }
            let watch = Unmanaged<BusNameWatch>.fromOpaque(userdata).takeUnretainedValue()
            guard !watch.changeSeen else { return 0 }
            let answer = BusMessage(reply)
            // An error answer (the bus daemon is going away) says nothing; the disconnect handler acts.
            guard answer.error == nil, let hasOwner = try? answer.readBool() else { return 0 }
            watch.handler(hasOwner)
            return 0
        }, userdata, 0)
        guard result >= 0, let call else {
            throw SystemError(operation: "sd_bus_call_async(NameHasOwner \(name))", errno: -result)
        }
        slots.append(call)
    }

    deinit {
        for slot in slots { sd_bus_slot_unref(slot) }
    }
}
