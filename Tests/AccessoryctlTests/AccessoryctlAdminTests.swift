import AccessoryPlatform
import Foundation
import Testing

/// accessoryctl's administrator commands, run as a process against a fake
/// Admin1 on a private bus: what they print, what they ask the daemon, and
/// how they report its errors.
@Suite(.serialized) struct AccessoryctlAdminTests {
    let admin: FakeAdmin

    init() throws {
        admin = try FakeAdmin()
        admin.requests = [
            .init(number: 3, app: "acme-logger", kind: "picker", items: ["Acme sensor", "Acme camera"]),
            .init(number: 4, app: "lockd", kind: "picker", items: ["Front door"]),
        ]
        admin.candidates = [
            3: [
                .init(number: 1, item: "Acme sensor", name: "Lab Sensor", kind: "bluetooth",
                      identity: "00:AA:01:01:00:01/public", rssi: -52),
                .init(number: 2, item: "Acme camera", name: "", kind: "wifi", identity: "ACME-CAM-7", rssi: 127),
            ],
            4: [],
        ]
    }

    @Test func requestsListsEachRequestWithItsCandidates() throws {
        let result = try admin.run(["requests"])
        #expect(result.status == 0)
        #expect(result.err == "")
        #expect(result.out == """
            request 3: acme-logger asks for "Acme sensor", "Acme camera"
              CANDIDATE  ITEM         DEVICE      KIND       ADDRESS/SSID              RSSI
              1          Acme sensor  Lab Sensor  bluetooth  00:AA:01:01:00:01/public  -52
              2          Acme camera  -           wifi       ACME-CAM-7                none

            request 4: lockd asks for "Front door"
              no candidates yet

            """)
        #expect(admin.calls == ["ListRequests", "ListCandidates 3", "ListCandidates 4"])
    }

    @Test func requestsSaysWhichItemsHaveAProductImageAndTheTimeLeft() throws {
        admin.requests = [.init(number: 6, app: "acme-logger", kind: "picker", items: ["Acme sensor", "Acme camera"],
                                images: ["/usr/share/accessoryd/images/acme-logger/sensor.png", ""], secondsLeft: 42)]
        admin.candidates = [6: []]
        let result = try admin.run(["requests"])
        #expect(result.out == """
            request 6: acme-logger asks for "Acme sensor", "Acme camera"
              product image of "Acme sensor": /usr/share/accessoryd/images/acme-logger/sensor.png
              discovery ends in 42 s
              no candidates yet

            """)
    }

    @Test func requestsSaysWhenNothingIsPending() throws {
        admin.requests = []
        #expect(try admin.run(["requests"]) == (0, "no pending requests\n", ""))
    }

    @Test func aMigrationRequestSaysItIsApprovedWithCandidateZero() throws {
        admin.requests = [.init(number: 5, app: "acme-logger", kind: "migration", items: ["Old sensor"])]
        admin.candidates = [5: []]
        let result = try admin.run(["requests"])
        #expect(result.out == "request 5: acme-logger migrates \"Old sensor\" (approve it as a whole: candidate 0)\n")
    }

    @Test func namesFromTheRadioCannotDriveTheTerminal() throws {
        // An advertised name is the sender's choice: an escape sequence, a
        // line break and a right-to-left override must print as escapes.
        admin.candidates[3] = [.init(number: 1, item: "Acme sensor", name: "Evil\u{1B}[2J\nName\u{202E}",
                                     kind: "bluetooth", identity: "00:AA:01:01:00:02/random", rssi: -70)]
        let result = try admin.run(["requests"])
        #expect(result.out.contains(#"  1          Acme sensor  Evil\x1B[2J\x0AName\u{202E}  bluetooth  00:AA:01:01:00:02/random  -70"#))
        #expect(!result.out.contains("\u{1B}"))
    }

    @Test func aRequestThatEndsWhileListedIsLeftOut() throws {
        admin.candidates[3] = nil
        let result = try admin.run(["requests"])
        #expect(result.status == 0)
        #expect(result.out == "request 4: lockd asks for \"Front door\"\n  no candidates yet\n")
    }

    @Test func approvePassesTheNameAndPrintsTheAccessory() throws {
        let result = try admin.run(["approve", "3", "2", "--name", "Porch camera"])
        #expect(result == (0, "approved: accessory 00000000000000a1 (/org/accessoryagent/accessory/00000000000000a1)\n", ""))
        #expect(admin.calls == ["Approve 3 2 Porch camera"])
    }

    @Test func approveWithoutANameKeepsTheDevicesName() throws {
        _ = try admin.run(["approve", "3", "1"])
        #expect(admin.calls == ["Approve 3 1 "])
    }

    @Test func pairingQuestionsListsWhatThePairingsAsk() throws {
        admin.questions = [(3, 2, "numeric-comparison", "004711")]
        let result = try admin.run(["pairing-questions"])
        #expect(result == (0, """
            REQUEST  PROMPT  KIND                NUMBER  ACCESSORY   APPROVER       SECONDS LEFT
            3        2       numeric-comparison  004711  Lab Sensor  administrator  20

            """, ""))
        admin.questions = []
        #expect(try admin.run(["pairing-questions"]) == (0, "no pairing questions\n", ""))
    }

    @Test func answerPairingAnswersTheOpenQuestionOrTheOneNamed() throws {
        admin.questions = [(4, 1, "passkey-entry", "")]
        #expect(try admin.run(["answer-pairing", "4", "--passkey", "000042"]) == (0, "answered: request 4 prompt 1\n", ""))
        #expect(try admin.run(["answer-pairing", "3", "--prompt", "7", "--confirm"]) == (0, "answered: request 3 prompt 7\n", ""))
        #expect(admin.calls == ["ListPairingQuestions", "AnswerPairing 4 1 000042", "AnswerPairing 3 7 yes"])
        let none = try admin.run(["answer-pairing", "3", "--reject"])
        #expect(none == (1, "", "accessoryctl: answer-pairing: no pairing question is open for request 3\n"))
    }

    @Test(arguments: [
        (["answer-pairing", "4"], "give exactly one of --confirm, --reject, --passkey"),
        (["answer-pairing", "4", "--confirm", "--reject"], "give exactly one of --confirm, --reject, --passkey"),
        (["answer-pairing", "4", "--passkey", "1000000"], "--passkey needs six digits, 000000-999999"),
        (["answer-pairing", "4", "--passkey", "12345"], "--passkey needs six digits, 000000-999999"),
    ])
    func answerPairingRefusesABadAnswerBeforeTheBus(arguments: [String], message: String) throws {
        let result = try admin.run(arguments)
        #expect(result.status == 1 && result.err.contains(message), "\(result.err)")
        #expect(admin.calls.isEmpty)
    }

    @Test func theDaemonsRefusalOfAnAnswerIsNamed() throws {
        admin.errors["AnswerPairing"] = BusError(name: "org.accessoryagent.Error.noSuchPairingQuestion",
                                                 message: "no open pairing question 4/1 (answered, timed out, or never asked)")
        let result = try admin.run(["answer-pairing", "4", "--prompt", "1", "--confirm"])
        #expect(result == (1, "", "accessoryctl: answer-pairing: noSuchPairingQuestion: no open pairing question 4/1 (answered, timed out, or never asked)\n"))
    }

    @Test func denyTellsTheDaemon() throws {
        #expect(try admin.run(["deny", "4"]) == (0, "denied: request 4\n", ""))
        #expect(admin.calls == ["Deny 4"])
    }

    @Test func aDaemonErrorIsShownByItsShortNameAndMessage() throws {
        admin.errors["Approve"] = BusError(name: "org.accessoryagent.Error.invalidRequest", message: "no candidate 9 in request 3")
        let result = try admin.run(["approve", "3", "9"])
        #expect(result == (1, "", "accessoryctl: approve: invalidRequest: no candidate 9 in request 3\n"))
    }

    @Test func accessDeniedAsksForRootOrTheGroup() throws {
        admin.errors["ListAccessories"] = BusError(name: "org.freedesktop.DBus.Error.AccessDenied", message: "Admin1 is root's")
        #expect(try admin.run(["accessories"]) == (1, "", "accessoryctl: accessories: permission denied: run as root or as a member of group accessory-admin\n"))
    }

    @Test func anOlderDaemonWithoutTheMemberIsNamed() throws {
        admin.errors["Allow"] = BusError(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "Unknown method")
        let result = try admin.run(["allow", "--app", "acme-logger", "--for", "10m"])
        #expect(result == (1, "", "accessoryctl: allow: accessoryd does not offer org.accessoryagent.Admin1.Allow; is it older than accessoryctl?\n"))
    }

    @Test func aReplyOfTheWrongShapeIsReportedNotTrusted() throws {
        admin.malformed = ["ListAccessories"]
        let result = try admin.run(["accessories"])
        #expect(result.status == 1)
        #expect(result.err.hasPrefix("accessoryctl: accessories: unexpected reply to ListAccessories: "))
    }

    @Test func accessoriesListsEveryGrant() throws {
        admin.accessories = [
            .init(id: "00000000000000a1", app: "acme-logger", name: "Porch", state: "authorized", identity: "00:AA:01:01:00:01/public",
                  present: true, secondsSinceHeard: 3),
            .init(id: "00000000000000b2", app: "lockd", name: "Front door lock", state: "awaitingAuthorization", identity: "LOCK-1"),
            .init(id: "00000000000000c3", app: "lockd", name: "Shed", state: "authorized", identity: "00:AA:01:01:00:03/public",
                  present: false, secondsSinceHeard: 7_500),
        ]
        #expect(try admin.run(["accessories"]) == (0, """
            ID                APP          NAME             STATE                  ADDRESS/SSID              PRESENT  LAST SEEN
            00000000000000a1  acme-logger  Porch            authorized             00:AA:01:01:00:01/public  yes      3 s ago
            00000000000000b2  lockd        Front door lock  awaitingAuthorization  LOCK-1                    no       -
            00000000000000c3  lockd        Shed             authorized             00:AA:01:01:00:03/public  no       2 h ago

            """, ""))
        admin.accessories = []
        #expect(try admin.run(["accessories"]) == (0, "no accessories\n", ""))
    }

    @Test func removeAndRenameTakeAnIdOrAnObjectPath() throws {
        #expect(try admin.run(["remove", "00000000000000a1"]) == (0, "removed: accessory 00000000000000a1\n", ""))
        #expect(try admin.run(["rename", "/org/accessoryagent/accessory/00000000000000b2", "Back door"])
                == (0, "renamed: accessory 00000000000000b2 is now \"Back door\"\n", ""))
        #expect(admin.calls == ["RemoveAccessory 00000000000000a1", "RenameAccessory 00000000000000b2 Back door"])
    }

    @Test func allowSendsTheWindowInSeconds() throws {
        for (span, seconds) in [("10m", 600), ("90s", 90), ("1h", 3600), ("1500ms", 2)] {
            let result = try admin.run(["allow", "--app", "acme-logger", "--for", span])
            #expect(result == (0, "approval window open for acme-logger: \(seconds)s\n", ""))
        }
        #expect(try admin.run(["disallow", "--app", "acme-logger"]) == (0, "approval window closed for acme-logger\n", ""))
        #expect(admin.calls == ["Allow acme-logger 600", "Allow acme-logger 90", "Allow acme-logger 3600",
                                "Allow acme-logger 2", "Disallow acme-logger"])
    }
}

/// accessoryctl when there is no accessoryd to talk to.
@Suite struct AccessoryctlWithoutDaemonTests {
    @Test func aNameWithoutOwnerMeansTheDaemonIsNotRunning() throws {
        let admin = try FakeAdmin(owningName: false)
        for command in [["requests"], ["approve", "1", "1"], ["accessories"], ["disallow", "--app", "x"]] {
            let result = try admin.run(command)
            #expect(result == (1, "", "accessoryctl: \(command[0]): accessoryd is not running\n"))
        }
    }

    @Test func aBusThatIsNotThereIsNamed() throws {
        let result = try AccessoryctlProcessTests.runAlone(["requests", "--bus-address", "unix:path=/nonexistent/bus"])
        #expect(result.status == 1)
        #expect(result.err.hasPrefix("accessoryctl: requests: cannot connect to the bus at unix:path=/nonexistent/bus: "))
    }
}
