import AccessoryPlatform
import Testing
@testable import AccessorySetup

/// The agent's error names back to AccessorySetupKit's codes.
@Suite struct ErrorMappingTests {
    @Test(arguments: AccessorySetupError.Code.allCases)
    func everyCodeComesBackFromItsBusName(code: AccessorySetupError.Code) {
        let error = AccessorySetupError(BusError(name: "org.accessoryagent.Error.\(code)", message: "why"))
        #expect(error.code == code)
        #expect(error.reason == .message("why"))
    }

    @Test func theNamesAreASKs() {
        let names = ["activationFailed", "invalidRequest", "pickerAlreadyActive", "userCancelled", "discoveryTimeout",
                     "connectionFailed", "invalidated"]
        for name in names {
            #expect(AccessorySetupError(BusError(name: "org.accessoryagent.Error." + name, message: "")).code.description == name)
        }
    }

    @Test func anEmptyMessageGivesNoReason() {
        let error = AccessorySetupError(BusError(name: "org.accessoryagent.Error.invalidated", message: ""))
        #expect(error == AccessorySetupError(.invalidated))
    }

    @Test(arguments: [
        "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.UnknownObject",
        "org.freedesktop.DBus.Error.AccessDenied", "org.accessoryagent.Error.somethingNew",
        "org.accessoryagent.Error.", "org.accessoryagent.Error.UserCancelled",
    ])
    func otherErrorsAreUnknownAndKeepTheirNameAndMessage(name: String) {
        let error = AccessorySetupError(BusError(name: name, message: "The name is not activatable"))
        #expect(error.code == .unknown)
        #expect(error.reason == .message("\(name): The name is not activatable"))
    }

    @Test func signalsNameTheirErrorsByCode() {
        #expect(AccessorySetupError(signalError: "", message: "") == nil)
        #expect(AccessorySetupError(signalError: "userCancelled", message: "denied by accessoryctl (uid 0)")
            == AccessorySetupError(.userCancelled, reason: .message("denied by accessoryctl (uid 0)")))
        #expect(AccessorySetupError(signalError: "org.accessoryagent.Error.discoveryTimeout", message: "")
            == AccessorySetupError(.discoveryTimeout))
        #expect(AccessorySetupError(signalError: "bogus", message: "x")?.code == .unknown)
    }
}
