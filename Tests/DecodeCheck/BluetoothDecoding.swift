import AccessoryATT
import AccessoryCodecs
import AccessoryCore

/// What the Bluetooth side decodes from outside bytes, split as the fuzz
/// targets of the same names split their inputs (Tests/Fuzz/Targets).
let bluetoothDecodeTargets: [DecodeTarget] = [
    DecodeTarget(name: "hci-event") { bytes in
        let event = Result { try HCIEvent.decode(bytes) }
        return parts([
            "event": outcome { try event.get() },
            "h4": outcome { try HCIEvent.decode(h4Packet: [HCIPacketIndicator.event.rawValue] + bytes) },
            "device": outcome { try HCIDeviceEvent.decode(try event.get()) },
            "command": outcome { try HCICommandPacket.decode(bytes) },
        ])
    },
    DecodeTarget(name: "advertising-data") { bytes in
        guard let split = bytes.first else { return "empty" }
        let rest = bytes.dropFirst()
        let cut = rest.startIndex + min(Int(split), rest.count)
        let advertised = AdvertisingDataParser.read(rest[..<cut])
        let response = AdvertisingDataParser.read(rest[cut...])
        let device = BluetoothDeviceIdentifier(address: BluetoothAddress("C0:FF:EE:00:00:01")!, addressType: .random)
        let indication = Advertisement(
            LEAdvertisingReport(eventType: .connectableUndirected, device: device, data: Array(rest[..<cut]), rssi: -40))
        let scanResponse = Advertisement(
            LEAdvertisingReport(eventType: .scanResponse, device: device, data: Array(rest[cut...]), rssi: -41))
        return parts([
            "advertised": CanonicalRendering.render(advertised),
            "strict": outcome { try AdvertisingDataParser.parse(rest[..<cut]) },
            "response": CanonicalRendering.render(response),
            "added": CanonicalRendering.render(advertised.data.adding(response.data)),
            "merged": CanonicalRendering.render(indication.merging(scanResponse)),
        ])
    },
    DecodeTarget(name: "advertising-reports") { bytes in
        let reassembler = ExtendedAdvertisingReassembler(maximumDataLength: 400, maximumPendingAdvertisements: 4)
        var decoder = AdvertisingReportDecoder(reassembler: reassembler)
        var heard: [String] = []
        var offset = 0
        while offset < bytes.count {
            let end = offset + 1 < bytes.count ? min(bytes.count, offset + 2 + Int(bytes[offset + 1])) : bytes.count
            heard.append(CanonicalRendering.render(decoder.advertisements(fromEventPacket: bytes[offset..<end])))
            offset = end
        }
        return parts([
            "advertisements": "[" + heard.joined(separator: ", ") + "]",
            "pending": String(decoder.reassembler.pendingCount),
            "drops": CanonicalRendering.render(decoder.drops),
        ])
    },
    DecodeTarget(name: "btsnoop") { bytes in
        do throws(BtsnoopError) {
            var reader = try BtsnoopReader(bytes)
            var records: [BtsnoopRecord] = []
            var stop = "end"
            while true {
                do throws(BtsnoopError) {
                    guard let record = try reader.next() else { break }
                    records.append(record)
                } catch {
                    stop = CanonicalRendering.render(error)
                    break
                }
            }
            var decoder = AdvertisingReportDecoder()
            let advertisements = records.filter { $0.opcode == .eventPacket }.map {
                decoder.advertisements(fromEventPacket: $0.packet, controllerIndex: $0.controllerIndex)
            }
            let written = outcome { try BtsnoopWriter(datalink: reader.datalink).file(records) }
            return parts([
                "records": CanonicalRendering.render(records),
                "stop": stop,
                "advertisements": CanonicalRendering.render(advertisements),
                "written": written,
            ])
        } catch {
            return "error " + CanonicalRendering.render(error)
        }
    },
    DecodeTarget(name: "att-pdu") { bytes in
        let pdu = Result { try ATTPDU(decoding: bytes) }
        return parts([
            "pdu": outcome { try pdu.get() },
            "encoded": outcome { try pdu.get().encoded },
        ])
    },
]
