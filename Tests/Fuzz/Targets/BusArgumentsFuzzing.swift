@testable import AccessoryDaemon
@testable import AccessoryPlatform
import CSystemd
import Glibc

/// The D-Bus argument decoders (descriptors, display items, settings,
/// migration items, shown candidates, accessory paths), through their real
/// entry: a sealed sd-bus message. sd-bus has no public call that parses a
/// message from wire octets, so the input drives what is appended instead:
/// the first octet picks the method and whether the arguments follow its
/// signature or one the input spells (wrong types must be refused, never
/// trap); the rest gives array lengths, strings and numbers.
let busArgumentsTarget = FuzzTarget(name: "bus-arguments") { bytes in
    guard let selector = bytes.first, let bus = BusForMessages.shared.bus else { return }
    var source = ByteSource(bytes.dropFirst())
    let method = BusArgumentMethod.all[Int(selector & 0x7F) % BusArgumentMethod.all.count]
    let signature = selector & 0x80 == 0 ? method.signature : source.signature()

    var raw: OpaquePointer?
    guard sd_bus_message_new_method_call(
        bus, &raw, "org.accessoryagent", "/org/accessoryagent/session/1", "org.accessoryagent.Session1", method.name) >= 0,
        let raw
    else { return }
    let message = BusMessage(adopting: raw)
    var builder = MessageBuilder(message: raw, source: source)
    guard builder.append(signature), sd_bus_message_seal(raw, 1, 0) >= 0, sd_bus_message_rewind(raw, 1) >= 0 else { return }
    method.decode(message, builder.topLevelCount)
}

/// One method's arguments and the decoders the service runs on them.
private struct BusArgumentMethod: Sendable {
    let name: String
    let signature: String
    /// Decodes; the count is how many elements the first argument's array was given.
    let decode: @Sendable (BusMessage, Int?) -> Void

    static let all = [
        BusArgumentMethod(name: "Descriptor", signature: "a{ss}") { call, _ in
            _ = try? BusArguments.descriptor(call)
        },
        BusArgumentMethod(name: "ShowPicker", signature: "a(ssa{ss}asas)a{ss}") { call, count in
            guard let items = try? BusArguments.displayItems(call) else { return }
            expect(items.count == count, "\(items.count) display items from \(count ?? -1) sent")
            _ = try? BusArguments.settings(call)
        },
        BusArgumentMethod(name: "Migrate", signature: "a(sssa{ss})") { call, count in
            guard let items = try? BusArguments.migrationItems(call) else { return }
            expect(items.count == count, "\(items.count) migration items from \(count ?? -1) sent")
        },
        BusArgumentMethod(name: "UpdatePicker", signature: "a(uss)") { call, count in
            guard let shown = try? BusArguments.shownCandidates(call) else { return }
            expect(shown.count == count, "\(shown.count) candidates from \(count ?? -1) sent")
        },
        BusArgumentMethod(name: "FinishAuthorization", signature: "oa{ss}") { call, _ in
            _ = try? BusArguments.accessory(call)
        },
    ]
}

/// sd-bus makes messages only for a bus that has been started; this one is
/// started on one end of a socket pair and never talks to anyone.
final class BusForMessages: @unchecked Sendable {
    static let shared = BusForMessages()
    let bus: OpaquePointer?

    private init() {
        var pair: [Int32] = [-1, -1]
        var bus: OpaquePointer?
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0,
            sd_bus_new(&bus) >= 0, let bus,
            sd_bus_set_fd(bus, pair[0], pair[0]) >= 0, sd_bus_start(bus) >= 0
        else {
            printError("bus-arguments: cannot start a bus on a socket pair\n")
            self.bus = nil
            return
        }
        self.bus = bus
    }
}

/// The fuzz input, read as it is needed; zeros once it runs out.
struct ByteSource {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    var isAtEnd: Bool { bytes.isEmpty }

    mutating func next() -> UInt8 { bytes.popFirst() ?? 0 }

    mutating func take(_ count: Int) -> [UInt8] {
        let taken = bytes.prefix(count)
        bytes = bytes.dropFirst(count)
        return Array(taken)
    }

    /// A length octet, then that many octets as text (invalid UTF-8 repaired, NULs dropped: sd-bus refuses both).
    mutating func string() -> String {
        String(decoding: take(Int(next())).filter { $0 != 0 }, as: UTF8.self)
    }

    /// A signature spelt by the input, up to 16 characters of the types the builder knows.
    mutating func signature() -> String {
        let alphabet = Array("sobuqiytav(){}")
        return String(take(Int(next() % 17)).map { alphabet[Int($0) % alphabet.count] })
    }
}

/// Appends values for a signature, driven by the input. Stops (false) at
/// the first value sd-bus refuses, as a malformed signature makes it.
struct MessageBuilder {
    let message: OpaquePointer
    var source: ByteSource
    /// Elements given to the first argument when it is an array.
    private(set) var topLevelCount: Int?
    /// Bounds the values in one message, so that an input cannot ask for an endless one.
    private var budget = 2048
    private var depth = 0

    init(message: OpaquePointer, source: ByteSource) {
        self.message = message
        self.source = source
    }

    mutating func append(_ signature: String) -> Bool {
        var rest = Substring(signature)
        var first = true
        while !rest.isEmpty {
            guard let type = Self.completeType(&rest) else { return false }
            let isArray = type.first == "a"
            guard appendValue(type, counting: first && isArray) else { return false }
            first = false
        }
        return true
    }

    private mutating func appendValue(_ type: Substring, counting: Bool = false) -> Bool {
        budget -= 1
        guard budget > 0, let code = type.first else { return false }
        let typeCode = CChar(bitPattern: code.asciiValue ?? 0)
        switch code {
        case "a":
            let element = type.dropFirst()
            guard sd_bus_message_open_container(message, typeCode, String(element)) >= 0 else { return false }
            let count = source.isAtEnd ? 0 : Int(source.next() % 16)
            var appended = 0
            for _ in 0..<count where !source.isAtEnd {
                guard appendValue(element) else { return false }
                appended += 1
            }
            if counting { topLevelCount = appended }
            return sd_bus_message_close_container(message) >= 0
        case "(", "{":
            var inner = type.dropFirst().dropLast()
            let container = CChar(bitPattern: (code == "(" ? Character("r") : Character("e")).asciiValue ?? 0)
            guard sd_bus_message_open_container(message, container, String(inner)) >= 0 else { return false }
            while !inner.isEmpty {
                guard let member = Self.completeType(&inner), appendValue(member) else { return false }
            }
            return sd_bus_message_close_container(message) >= 0
        case "v":
            let contents = ["s", "u", "as", "a{ss}", "b", "ay", "i", "o"][Int(source.next() % 8)]
            guard depth < 8, sd_bus_message_open_container(message, typeCode, contents) >= 0 else { return false }
            depth += 1
            defer { depth -= 1 }
            return appendValue(Substring(contents)) && sd_bus_message_close_container(message) >= 0
        case "s":
            let text = source.string()
            return text.withCString { sd_bus_message_append_basic(message, typeCode, $0) } >= 0
        case "o":
            let path = Self.objectPath(source.string())
            return path.withCString { sd_bus_message_append_basic(message, typeCode, $0) } >= 0
        case "b":
            var value: Int32 = Int32(source.next() & 1)
            return sd_bus_message_append_basic(message, typeCode, &value) >= 0
        case "y":
            var value = source.next()
            return sd_bus_message_append_basic(message, typeCode, &value) >= 0
        case "q":
            var value = UInt16(source.next()) << 8 | UInt16(source.next())
            return sd_bus_message_append_basic(message, typeCode, &value) >= 0
        case "i", "u":
            var value = source.take(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            return sd_bus_message_append_basic(message, typeCode, &value) >= 0
        case "t":
            var value = source.take(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return sd_bus_message_append_basic(message, typeCode, &value) >= 0
        default:
            return false
        }
    }

    /// Takes one complete type off the front of a signature; nil when it is not one.
    private static func completeType(_ signature: inout Substring) -> Substring? {
        guard let code = signature.first else { return nil }
        let start = signature.startIndex
        switch code {
        case "a":
            var rest = signature.dropFirst()
            guard completeType(&rest) != nil else { return nil }
            signature = rest
        case "(", "{":
            let close: Character = code == "(" ? ")" : "}"
            var rest = signature.dropFirst()
            while let next = rest.first, next != close {
                guard completeType(&rest) != nil else { return nil }
            }
            guard rest.first == close else { return nil }
            signature = rest.dropFirst()
        case ")", "}":
            return nil
        default:
            signature = signature.dropFirst()
        }
        return signature.base[start..<signature.startIndex]
    }

    /// A valid object path from any text: `/` then elements of [A-Za-z0-9_].
    private static func objectPath(_ text: String) -> String {
        let elements = text.split(separator: "/").map { element in
            String(element.unicodeScalars.map { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) ? Character(scalar) : "_"
            })
        }
        return "/" + elements.joined(separator: "/")
    }
}
