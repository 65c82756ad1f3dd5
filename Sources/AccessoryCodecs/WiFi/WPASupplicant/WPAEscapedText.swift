/// wpa_supplicant writes SSIDs for people (`STATUS`, `LIST_NETWORKS`, events)
/// with C escapes (its `printf_encode`): `\\`, `\"`, `\n`, `\r`, `\t`, `\e`,
/// and `\xNN` for any other byte outside printable ASCII. This undoes them,
/// giving back the SSID's exact bytes.
enum WPAEscapedText {
    static func decode(_ text: some Collection<UInt8>) throws(WPAReplyError) -> [UInt8] {
        let input = Array(text)
        var output: [UInt8] = []
        var index = 0
        while index < input.count {
            let byte = input[index]
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                index += 1
                continue
            }
            guard index + 1 < input.count else { throw .escape(offset: index) }
            switch input[index + 1] {
            case UInt8(ascii: "\\"): output.append(0x5C)
            case UInt8(ascii: "\""): output.append(0x22)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "e"): output.append(0x1B)
            case UInt8(ascii: "x"):
                guard index + 3 < input.count, let value = bytes(fromHexPair: input[index + 2], input[index + 3])
                else { throw .escape(offset: index) }
                output.append(value)
                index += 4
                continue
            default: throw .escape(offset: index)
            }
            index += 2
        }
        return output
    }

    private static func bytes(fromHexPair high: UInt8, _ low: UInt8) -> UInt8? {
        guard let high = digit(high), let low = digit(low) else { return nil }
        return high << 4 | low
    }

    private static func digit(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x41 + 10
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }
}
