@testable import AccessoryCodecs

/// `WPAPassphrase` and `SAEPassword` from an app's bytes: either accepted
/// within their rules (8–63 printable ASCII or 64 hex digits; 1–128 bytes
/// without control characters) or refused with an offset inside the input,
/// and never shown: both print `<redacted>`.
let wpaCredentialsTarget = FuzzTarget(name: "wpa-credentials") { bytes in
    do throws(WPACredentialError) {
        let passphrase = try WPAPassphrase(bytes: bytes)
        switch passphrase.form {
        case .rawPSK:
            expect(bytes.count == 64 && bytes.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) },
                   "a raw PSK that is not 64 hex digits")
            expect(passphrase.controlValue == bytes, "a raw PSK sent as something else")
        case .passphrase:
            expect((8...63).contains(bytes.count) && bytes.allSatisfy { (0x20...0x7E).contains($0) }, "a passphrase outside its rules")
            expect(passphrase.controlValue == [0x22] + bytes + [0x22], "a passphrase sent unquoted")
        }
        expect("\(passphrase)" == "<redacted>" && String(reflecting: passphrase) == "<redacted>", "a passphrase shown")
    } catch {
        switch error {
        case .passphraseCharacter(let offset), .pskHexDigit(let offset): expect(offset >= 0 && offset < bytes.count, "offset \(offset) outside the input")
        case .passphraseLength(let count): expect(count == bytes.count && count != 64 && !(8...63).contains(count), "length \(count) misreported")
        default: break
        }
    }
    do throws(WPACredentialError) {
        let password = try SAEPassword(bytes: bytes)
        expect((1...SAEPassword.maximumLength).contains(bytes.count) && !bytes.contains { $0 < 0x20 || $0 == 0x7F },
               "an SAE password outside its rules")
        expect("\(password)" == "<redacted>", "an SAE password shown")
    } catch {
        switch error {
        case .saePasswordControlCharacter(let offset): expect(offset >= 0 && offset < bytes.count, "offset \(offset) outside the input")
        case .saePasswordLength(let count): expect(count == bytes.count, "length \(count) misreported")
        default: break
        }
    }
}
