// An app's use of AccessorySetup from start to end: open a session, see what
// the app already has, ask for one more accessory, follow the picker's events.
import AccessorySetup
import Glibc  // exit() only

let options: Options
do {
    options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch {
    printError("\(error)\n\n\(Options.usage)")
    exit(2)
}
if options.help {
    say(Options.usage)
    exit(0)
}

// First: the wake socket's connections are there to be taken once.
let wakeNotes = options.woken ? WakeNotes.take() : []
for note in wakeNotes {
    say("woken: \(printable(note["ACCESSORY"] ?? "?")) \(printable(note["REASON"] ?? "?")) rssi=\(printable(note["RSSI"] ?? "?"))")
}

let session = AccessorySession(busAddress: options.busAddress)
do {
    let known = try await session.activate()
    say("activated: \(known.count) accessor\(known.count == 1 ? "y" : "ies")")
    for accessory in known { say("  " + describe(accessory)) }
} catch {
    printError("cannot activate the session: \(error)")
    exit(1)
}

let items = options.pickerItems
if items.isEmpty, let observe = options.observe {
    var status: Int32 = 0
    for accessory in session.accessories {
        do {
            try await session.observePresence(of: accessory, observe)
            say("observing \(accessory.id): \(observe ? "yes" : "no")")
        } catch {
            printError("cannot observe \(accessory.id): \(error)")
            status = 1
        }
    }
    session.invalidate()
    exit(status)
}
if items.isEmpty, options.woken, let read = options.read {
    // The accessories the notes name (the path ends in the accessory's id), still the app's.
    let named = Set(wakeNotes.compactMap { $0["ACCESSORY"]?.split(separator: "/").last.map(String.init) })
    guard let sensor = session.accessories.first(where: { named.contains("\($0.id)") && $0.bluetoothIdentifier != nil }) else {
        printError(wakeNotes.isEmpty ? "woken without a note on the wake socket" : "no accessory of this app is named by the wake note")
        exit(1)
    }
    exit(await readCharacteristic(of: sensor, read, hold: false))
}
if items.isEmpty {
    // Nothing to ask for: use what the app already has.
    if let read = options.read {
        guard let sensor = session.accessories.first(where: { $0.bluetoothIdentifier != nil }) else {
            printError("this app has no Bluetooth accessory to read from")
            exit(1)
        }
        exit(await readCharacteristic(of: sensor, read, hold: options.hold))
    }
    if options.join {
        guard let camera = session.accessories.first(where: { $0.ssid != nil }) else {
            printError("this app has no Wi-Fi accessory to join")
            exit(1)
        }
        exit(await joinHotspot(of: camera, fetch: options.fetch))
    }
    if let seconds = options.follow { exit(await follow(session, for: seconds)) }
    session.invalidate()
    exit(0)
}

// Events are printed as they come, while showPicker waits for the picker to end.
let watcher = Task {
    var picked: Accessory?
    for await event in session.events {
        say("event: \(event)")
        if event.eventType == .accessoryAdded { picked = event.accessory }
        if event.eventType == .pickerDidDismiss { break }
    }
    return picked
}

var failure: AccessorySetupError?
do {
    try await session.showPicker(for: items)
} catch {
    failure = error
}
// The picker is dismissed; its events end with pickerDidDismiss. The
// session stays: the app goes on to use what it got. A picker refused
// outright has no events to wait for.
if failure != nil { watcher.cancel() }
let picked = await watcher.value

if let failure {
    printError("the picker ended without an accessory: \(failure)")
    exit(1)
}
guard let picked else {
    printError("the picker ended, but no accessory was added")
    exit(1)
}
say("picked: " + describe(picked))
if let read = options.read, picked.bluetoothIdentifier != nil {
    exit(await readCharacteristic(of: picked, read, hold: options.hold))
}
if options.join, picked.ssid != nil {
    exit(await joinHotspot(of: picked, fetch: options.fetch))
}
if let seconds = options.follow { exit(await follow(session, for: seconds)) }
exit(0)

/// What an app does with a Wi-Fi accessory: asks accessoryd to join its
/// hotspot, talks to it over the address it got, then leaves.
func joinHotspot(of accessory: Accessory, fetch url: String?) async -> Int32 {
    let passphrase = readLine(strippingNewline: true) ?? ""
    let join: HotspotJoin
    do {
        join = try await session.joinHotspot(of: accessory, passphrase: passphrase)
    } catch {
        printError("cannot join \(accessory.displayName)'s hotspot: \(error)")
        return 1
    }
    say("hotspot: \(join)")
    guard join.isJoined else { return 1 }
    var status: Int32 = 0
    if let url {
        do {
            let body = try HTTPGet.fetch(url)
            say("fetched: \(body.split(separator: "\n").joined(separator: " / "))")
        } catch {
            printError("fetch failed: \(error)")
            status = 1
        }
    }
    do {
        try await session.leaveHotspot(of: accessory)
        say("left the hotspot")
    } catch {
        printError("cannot leave the hotspot: \(error)")
        status = 1
    }
    return status
}

/// What an app does with its accessory: asks accessoryd for a channel and
/// reads a characteristic over it, with no capability of its own. With
/// `hold`, a channel taken away by a restart of accessoryd is asked for
/// again once the session says accessoryd is back (`serviceRestarted`).
func readCharacteristic(
    of accessory: Accessory, _ what: (service: BluetoothUUID, characteristic: BluetoothUUID), hold: Bool
) async -> Int32 {
    let watch = hold ? RestartWatch(session) : nil
    var gatt: GATTClient
    do {
        gatt = GATTClient(try await session.openBluetoothChannel(to: accessory))
    } catch {
        printError("no channel to \(accessory.displayName): \(error)")
        return 1
    }
    var again = false
    repeat {
        again = false
        let restarts = watch?.restarts ?? 0
        do {
            let value = try gatt.readCharacteristic(what.characteristic, of: what.service)
            say("read: \(what.characteristic) = \"\(String(decoding: value, as: UTF8.self))\"")
        } catch {
            printError("read failed: \(error)")
            guard let watch, await watch.wait(after: restarts) else { return hold ? 3 : 1 }
            do {
                gatt = GATTClient(try await session.openBluetoothChannel(to: accessory))
                say("channel opened again")
            } catch {
                printError("no channel to \(accessory.displayName) after the restart: \(error)")
                return 3
            }
            // The read that failed is made again, without waiting for a line.
            again = true
        }
    } while hold && (again || readLine() != nil)
    return 0
}
