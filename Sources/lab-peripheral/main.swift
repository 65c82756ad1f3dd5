import AccessoryCore
import AccessorySetup
import AccessoryPlatform
import AccessoryRadios
import Glibc

// The lab's Bluetooth LE accessory (not shipped): Debian's Python cannot
// bind an LE L2CAP socket to the ATT channel, so the lab has its own.
//
//   lab-peripheral serve --controller hci1 --value TEXT [--name NAME] [--service UUID] [--characteristic UUID]
//                  [--psm N] [--control PATH] [--require-encryption] [--accept-pairing]
//                  [--irk HEX [--rotate-seconds N]] [--bond-file PATH] [--not-bondable]
//       advertise (connectable, NAME and the 128-bit service UUID) and serve a
//       primary service with one readable characteristic holding TEXT, on the
//       ATT channel and, with --psm, over a connection-oriented channel on PSM N;
//       with --control, take `off`, `on` or `beacon MS` for the advertising on a
//       unix seqpacket socket at PATH, one command per connection, answered
//       `ok ...` once the controller has (AirCommand.swift); with
//       --require-encryption, the characteristic is read only over an
//       encrypted link (else ATT Insufficient Authentication); with
//       --accept-pairing, confirm Just Works pairings of this controller and
//       print the passkey it shows, over the management interface (no
//       bluetoothd to do it), having powered the controller through it with
//       Bondable on, and with --bond-file keep this side's keys in PATH
//       across restarts (PeripheralBondFile.swift), or with --not-bondable
//       refuse pairings that ask for bonding (Pairing Not Supported). With --irk HEX
//       (32 hex digits, most significant first) it advertises from a
//       resolvable private address made from that IRK, a new one every
//       --rotate-seconds N, its rotation's number in manufacturer data
//       (AddressRotation.swift), printing `address ADDR/random rotation N`;
//       `hold` on the control socket keeps the address it has.
//   lab-peripheral central (--fd N | --controller hci0 --address ADDR[/random])
//                  [--service UUID] [--characteristic UUID] [--read-again-on-input]
//                  [--security low|medium|high]
//       read the characteristic (over an inherited connected socket, or one of
//       its own) and print `value "TEXT"`; with --read-again-on-input, read it
//       again after a line on stdin, printing `read failed: REASON` (exit 3)
//       when the channel is gone. --security asks the kernel for that level
//       before connecting (medium: encrypted with the bond's key, pairing
//       first when there is none).

let defaultService = BluetoothUUID("4C616253-656E-736F-7200-000000000001")!
let defaultCharacteristic = BluetoothUUID("4C616253-656E-736F-7200-000000000002")!

func fail(_ message: String, status: Int32 = 1) -> Never {
    StandardOutput.write("\(message)\n")
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
let mode = arguments.isEmpty ? "" : arguments.removeFirst()
var options: [String: String] = [:]
var flags: Set<String> = []
while !arguments.isEmpty {
    let key = arguments.removeFirst()
    if ["--read-again-on-input", "--require-encryption", "--accept-pairing", "--not-bondable"].contains(key) {
        flags.insert(key)
    } else if key.hasPrefix("--"), !arguments.isEmpty {
        options[key] = arguments.removeFirst()
    } else {
        fail("lab-peripheral: unexpected argument \(key)", status: 2)
    }
}

@MainActor func uuidOption(_ key: String, default value: BluetoothUUID) -> BluetoothUUID {
    guard let text = options[key] else { return value }
    guard let uuid = BluetoothUUID(text) else { fail("lab-peripheral: \(key): not a UUID: \(text)", status: 2) }
    return uuid
}

@MainActor func controller(named name: String?) -> BluetoothControllerInfo {
    guard let name else { fail("lab-peripheral: --controller is required", status: 2) }
    guard let found = (try? BluetoothControllerInfo.all())?.first(where: { $0.name == name }) else {
        fail("lab-peripheral: no controller \(name)")
    }
    return found
}

let service = uuidOption("--service", default: defaultService)
let characteristic = uuidOption("--characteristic", default: defaultCharacteristic)

switch mode {
case "serve":
    guard let value = options["--value"] else { fail("lab-peripheral serve: --value is required", status: 2) }
    let info = controller(named: options["--controller"])
    if options["--bond-file"] != nil && !flags.contains("--accept-pairing") {
        fail("lab-peripheral serve: --bond-file needs --accept-pairing", status: 2)
    }
    let bonds = options["--bond-file"].map { PeripheralBondFile(path: $0, controller: info.index) }
    do {
        // Before advertising: powering the controller again ends what it had set up.
        // With --irk the accessory uses privacy: the kernel shares that IRK and the
        // controller's public address as its identity when it pairs.
        if flags.contains("--accept-pairing") {
            try PairableController.prepare(info.index, bonds: bonds, privacy: options["--irk"].flatMap { SecurityKey(hex: $0) },
                                           bondable: !flags.contains("--not-bondable"))
        }
        let advertiser = try LabAdvertiser(controller: info.index, name: options["--name"] ?? "Lab Sensor", service: service)
        let database = GATTDatabase(service: service, characteristic: characteristic, value: Array(value.utf8),
                                    requiresEncryption: flags.contains("--require-encryption"))
        let psm = options["--psm"].map { UInt16($0) ?? 0 }
        if psm == 0 { fail("lab-peripheral serve: --psm: not a PSM", status: 2) }
        let control = try options["--control"].map { try AirControlSocket(path: $0) }
        var rotation: AddressRotation?
        if let text = options["--irk"] {
            guard let irk = SecurityKey(hex: text) else { fail("lab-peripheral serve: --irk: not 32 hex digits", status: 2) }
            var interval: Duration?
            if let seconds = options["--rotate-seconds"] {
                guard let value = Int(seconds), value > 0 else {
                    fail("lab-peripheral serve: --rotate-seconds: not a positive number", status: 2)
                }
                interval = .seconds(value)
            }
            rotation = AddressRotation(irk: irk, interval: interval)
        } else if options["--rotate-seconds"] != nil {
            fail("lab-peripheral serve: --rotate-seconds needs --irk", status: 2)
        }
        var pairing = flags.contains("--accept-pairing") ? try PairingResponder(controller: info.index) : nil
        pairing?.bonds = bonds
        var peripheral = Peripheral(controller: info, advertiser: advertiser, database: database, psm: psm,
                                    control: control, rotation: rotation, pairing: pairing)
        try peripheral.run()
    } catch {
        fail("lab-peripheral serve: \(error)")
    }
case "central":
    let fd: Int32
    if let text = options["--fd"] {
        guard let number = Int32(text) else { fail("lab-peripheral: --fd: not a number", status: 2) }
        fd = number
    } else {
        guard let text = options["--address"], let peer = BluetoothDeviceIdentifier(parsing: text) else {
            fail("lab-peripheral central: --fd or --address ADDR[/random] is required", status: 2)
        }
        let security: L2CAPSecurity.Level?
        switch options["--security"] {
        case nil: security = nil
        case "low": security = .low
        case "medium": security = .medium
        case "high": security = .high
        case let other?: fail("lab-peripheral central: --security: not low, medium or high: \(other)", status: 2)
        }
        let info = controller(named: options["--controller"])
        do { fd = try CentralConnection.connect(from: info.address, to: peer, security: security) } catch {
            fail("connect failed: \(error)")
        }
    }
    let reader = GATTClient(fileDescriptor: fd)
    let handle: UInt16
    do {
        _ = try reader.exchangeMTU(64)
        let range = try reader.findService(service)
        handle = try reader.findCharacteristic(characteristic, in: range)
        StandardOutput.write("value \"\(String(decoding: try reader.read(handle), as: UTF8.self))\"\n")
    } catch {
        fail("read failed: \(error)")
    }
    if flags.contains("--read-again-on-input") {
        _ = readLine()
        do {
            StandardOutput.write("value \"\(String(decoding: try reader.read(handle), as: UTF8.self))\"\n")
        } catch {
            fail("read failed: \(error)", status: 3)
        }
    }
default:
    fail("usage: lab-peripheral serve|central ... (see Sources/lab-peripheral/main.swift)", status: 2)
}
