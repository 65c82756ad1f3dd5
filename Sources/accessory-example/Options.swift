import AccessorySetup

/// What the command line asked for.
struct Options {
    var busAddress: String?
    var bluetoothService: BluetoothUUID?
    var nameSubstring: String?
    /// The descriptor asks accessoryd to pair during setup (`bluetoothPairingLE`).
    var pairing = false
    var ssidPrefix: String?
    /// `SERVICE/CHARACTERISTIC`: read it over a channel to the Bluetooth accessory.
    var read: (service: BluetoothUUID, characteristic: BluetoothUUID)?
    var hold = false
    /// Join the Wi-Fi accessory's hotspot (the passphrase is stdin's first line).
    var join = false
    /// Once joined: fetch this page from the accessory.
    var fetch: String?
    /// Then print presence changes and advertisements for this many seconds.
    var follow: Int?
    /// Ask accessoryd to wake the app when its accessories appear (or stop asking), then exit.
    var observe: Bool?
    /// Started through the app's wake socket: take accessoryd's notes first.
    var woken = false
    var help = false

    static let usage = """
        usage: accessory-example [--bus-address ADDRESS]
                                 [--bluetooth-service UUID [--name-substring TEXT] [--pairing]]
                                 [--wifi-ssid-prefix PREFIX]
                                 [--read SERVICE/CHARACTERISTIC [--hold]]
                                 [--join [--fetch URL]] [--follow SECONDS]
                                 [--observe yes|no] [--woken]

        Opens a session with accessoryd, prints the accessories this app already
        has, then, given an accessory to look for, shows a picker and prints every
        event until the picker is dismissed.

          --bluetooth-service UUID   a Bluetooth LE accessory advertising this service
          --name-substring TEXT      ... whose name contains TEXT (AccessorySetupKit's
                                     rules want a name or data besides the service)
          --pairing                  ... and pair it during setup (bluetoothPairingLE;
                                     the manifest needs [Bluetooth] Pairing=yes)
          --wifi-ssid-prefix PREFIX  a Wi-Fi accessory whose hotspot's SSID starts with PREFIX
          --read SERVICE/CHARACTERISTIC
                                     then read this characteristic of the Bluetooth
                                     accessory (picked now, or else the first one the
                                     app has) over a channel accessoryd hands over
          --hold                     with --read: keep the channel, read again for
                                     every line on stdin, until stdin ends; after
                                     a restart of accessoryd, open it again
          --join                     then join the Wi-Fi accessory's hotspot (picked
                                     now, or else the first one the app has); the
                                     passphrase is the first line on stdin
          --fetch URL                with --join: fetch http://ADDRESS:PORT/PATH from
                                     the accessory, then leave the hotspot
          --follow SECONDS           then, for SECONDS seconds or until the session
                                     ends, print the app's accessories coming into
                                     range and going out of it, and their
                                     advertisements (not with --read or --join);
                                     a restart of accessoryd is followed through
          --observe yes|no           ask accessoryd to start the app (its manifest's
                                     WakeSocket=) when each of its accessories
                                     appears, or stop asking; then exit
          --woken                    started by systemd through the wake socket:
                                     print accessoryd's notes on it (LISTEN_FDS);
                                     with --read, read the accessory they name
          --bus-address ADDRESS      a bus other than the system bus (tests)
          --help                     this text

        Exit status: 0 with the accessory picked (and read, or followed to the
        end), 1 when the picker, the session or the channel failed (also when
        the session ends while following), 2 for a bad command line, 3 when a
        read on a held channel failed (the channel was taken away).
        """

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    init(_ arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        func value(of option: String) throws(UsageError) -> String {
            guard let value = rest.popFirst() else { throw UsageError(description: "\(option) needs a value") }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h": help = true
            case "--bus-address": busAddress = try value(of: argument)
            case "--bluetooth-service":
                let text = try value(of: argument)
                guard let uuid = BluetoothUUID(text) else {
                    throw UsageError(description: "\(text) is not a Bluetooth UUID (180F, or the 128-bit form)")
                }
                bluetoothService = uuid
            case "--name-substring": nameSubstring = try value(of: argument)
            case "--pairing": pairing = true
            case "--wifi-ssid-prefix": ssidPrefix = try value(of: argument)
            case "--read":
                let text = try value(of: argument)
                let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
                guard parts.count == 2, let service = BluetoothUUID(parts[0]), let characteristic = BluetoothUUID(parts[1]) else {
                    throw UsageError(description: "--read wants SERVICE/CHARACTERISTIC, two Bluetooth UUIDs")
                }
                read = (service, characteristic)
            case "--hold": hold = true
            case "--join": join = true
            case "--fetch": fetch = try value(of: argument)
            case "--follow":
                let text = try value(of: argument)
                guard let seconds = Int(text), seconds > 0 else {
                    throw UsageError(description: "--follow wants a number of seconds, not \(text)")
                }
                follow = seconds
            case "--observe":
                switch try value(of: argument) {
                case "yes": observe = true
                case "no": observe = false
                case let text: throw UsageError(description: "--observe wants yes or no, not \(text)")
                }
            case "--woken": woken = true
            default: throw UsageError(description: "unknown argument \(argument)")
            }
        }
        if hold, read == nil { throw UsageError(description: "--hold goes with --read") }
        if observe != nil, read != nil || join || follow != nil || woken {
            throw UsageError(description: "--observe goes alone")
        }
        if fetch != nil, !join { throw UsageError(description: "--fetch goes with --join") }
        if follow != nil, read != nil || join { throw UsageError(description: "--follow does not go with --read or --join") }
        if nameSubstring != nil, bluetoothService == nil {
            throw UsageError(description: "--name-substring needs --bluetooth-service")
        }
    }

    /// One picker item per kind of accessory asked for.
    var pickerItems: [PickerDisplayItem] {
        var items: [PickerDisplayItem] = []
        if let bluetoothService {
            var descriptor = DiscoveryDescriptor(bluetoothServiceUUID: bluetoothService, bluetoothNameSubstring: nameSubstring)
            if pairing { descriptor.supportedOptions = [.bluetoothPairingLE] }
            items.append(PickerDisplayItem(name: "Bluetooth accessory (\(bluetoothService))", descriptor: descriptor))
        }
        if let ssidPrefix {
            let descriptor = DiscoveryDescriptor(ssidPrefix: Array(ssidPrefix.utf8))
            items.append(PickerDisplayItem(name: "Wi-Fi accessory (\(ssidPrefix)…)", descriptor: descriptor))
        }
        return items
    }
}
