@testable import AccessoryPlatform
import AccessoryWire
import CSystemd

/// The client library's decoding of what the daemon sends (AccessorySetup,
/// accessoryctl): an accessory's properties (`a{sv}`), `AccessoryDiscovered`,
/// `TakeEvents`' queued events and Admin1's rows, through a sealed sd-bus
/// message the input fills in (as `bus-arguments`): the first octet picks
/// the decoder and whether the values follow its signature or one the input
/// spells. A daemon that lies or a bus that corrupts must give an error,
/// never a trap; what decodes re-encodes to the same values.
let clientDecodingTarget = FuzzTarget(name: "client-decoding") { bytes in
    guard let selector = bytes.first, let bus = BusForMessages.shared.bus else { return }
    var source = ByteSource(bytes.dropFirst())
    let decoder = ClientDecoder.all[Int(selector & 0x7F) % ClientDecoder.all.count]
    let signature = selector & 0x80 == 0 ? decoder.signature : source.signature()
    guard let message = sealed(bus, signature, &source) else { return }
    decoder.decode(message.message, message.count, bus)
}

/// A message holding values for `signature` from `source`, rewound for reading.
private func sealed(_ bus: OpaquePointer, _ signature: String, _ source: inout ByteSource) -> (message: BusMessage, count: Int?)? {
    var raw: OpaquePointer?
    guard sd_bus_message_new_method_call(bus, &raw, "org.example", "/org/example", "org.example.Client", "Decode") >= 0, let raw else {
        return nil
    }
    let message = BusMessage(adopting: raw)
    var builder = MessageBuilder(message: raw, source: source)
    guard builder.append(signature), sd_bus_message_seal(raw, 1, 0) >= 0, sd_bus_message_rewind(raw, 1) >= 0 else { return nil }
    source = builder.source
    return (message, builder.topLevelCount)
}

/// An empty message to encode into, then read back.
private func roundTrip(_ bus: OpaquePointer, _ build: (BusReply) -> Void) -> BusMessage? {
    var raw: OpaquePointer?
    guard sd_bus_message_new_method_call(bus, &raw, "org.example", "/org/example", "org.example.Client", "Again") >= 0, let raw else {
        return nil
    }
    let message = BusMessage(adopting: raw)
    build(BusReply(sd_bus_message_ref(raw)))
    guard sd_bus_message_seal(raw, 2, 0) >= 0, sd_bus_message_rewind(raw, 1) >= 0 else { return nil }
    return message
}

private struct ClientDecoder: Sendable {
    let signature: String
    let decode: @Sendable (BusMessage, Int?, OpaquePointer) -> Void

    static func rows<Record: WireRecord & Equatable>(_ type: Record.Type) -> ClientDecoder {
        ClientDecoder(signature: "a" + Record.type.signature) { message, count, bus in
            guard let rows = try? PlainArguments(message).records(of: Record.self, "rows") else { return }
            expect(rows.count == count, "\(rows.count) rows from \(count ?? -1) sent")
            guard let again = roundTrip(bus, { $0.append(records: rows) }) else { return }
            expect((try? PlainArguments(again).records(of: Record.self, "rows")) == rows, "rows changed on a round trip")
        }
    }

    static let all: [ClientDecoder] = [
        ClientDecoder(signature: "a{sv}") { message, _, _ in
            _ = try? WireAccessoryProperties.read(message)
        },
        ClientDecoder(signature: "ussiay") { message, _, bus in
            guard let found = try? WireDiscoveredAccessory(from: PlainArguments(message)) else { return }
            guard let again = roundTrip(bus, { found.append(to: $0) }) else { return }
            expect((try? WireDiscoveredAccessory(from: PlainArguments(again))) == found, "AccessoryDiscovered changed on a round trip")
        },
        ClientDecoder(signature: "a" + WireQueuedEvent.type.signature) { message, count, _ in
            guard let events = try? PlainArguments(message).records(of: WireQueuedEvent.self, "events") else { return }
            expect(events.count == count, "\(events.count) events from \(count ?? -1) sent")
        },
        rows(WireRequestRow.self),
        rows(WireCandidateRow.self),
        rows(WireAccessoryRow.self),
    ]
}
