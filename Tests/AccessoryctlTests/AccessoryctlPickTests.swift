import AccessoryPlatform
import Foundation
import Testing

/// `accessoryctl pick` driven line by line through a pipe, as a script or an
/// administrator at a plain terminal drives it.
@Suite(.serialized) struct AccessoryctlPickTests {
    let admin: FakeAdmin

    init() throws {
        admin = try FakeAdmin()
        admin.requests = [.init(number: 3, app: "acme-logger", kind: "picker", items: ["Acme sensor"])]
        admin.candidates = [3: [
            .init(number: 1, item: "Acme sensor", name: "Lab Sensor", kind: "bluetooth", identity: "00:AA:01:01:00:01/public", rssi: -52),
            .init(number: 2, item: "Acme sensor", name: "Lab Sensor 2", kind: "bluetooth", identity: "00:AA:01:01:00:02/public", rssi: -60),
        ]]
    }

    static let table = """
        request 3: acme-logger asks for "Acme sensor"
          CANDIDATE  ITEM         DEVICE        KIND       ADDRESS/SSID              RSSI
          1          Acme sensor  Lab Sensor    bluetooth  00:AA:01:01:00:01/public  -52
          2          Acme sensor  Lab Sensor 2  bluetooth  00:AA:01:01:00:02/public  -60

        """
    static let prompt = "approve which candidate? [number, r rename and approve, d deny, Enter list again, q quit] "

    @Test func waitsForARequestThenApprovesTheCandidateTyped() throws {
        admin.emptyListingsFirst = 2
        let result = try admin.run(["pick", "--interval", "50ms"], input: "2\n")
        #expect(result.status == 0)
        #expect(result.err == "")
        #expect(result.out == "waiting for a request with candidates...\n" + Self.table + Self.prompt
                + "approved: accessory 00000000000000a1 (/org/accessoryagent/accessory/00000000000000a1)\n")
        // The request ended with the approval: nothing to pair, nothing more to follow.
        #expect(admin.calls == ["ListRequests", "ListRequests", "ListRequests", "ListCandidates 3", "Approve 3 2 ", "ListRequests"])
    }

    @Test func asksAgainAfterAnythingThatIsNotAnAnswer() throws {
        let result = try admin.run(["pick"], input: "yes please\n9\nd\n")
        #expect(result.status == 0)
        #expect(result.out == Self.table + Self.prompt + "not an answer: \"yes please\"\n"
                + Self.prompt + "no candidate 9: choose 1, 2\n" + Self.prompt + "denied: request 3\n")
        #expect(admin.calls.last == "Deny 3")
    }

    @Test func renameAsksForTheCandidateAndANameThenApproves() throws {
        let result = try admin.run(["pick"], input: "r\n7\n1\n\n  Porch sensor \n")
        #expect(result.status == 0)
        #expect(result.out.hasSuffix(Self.prompt + "rename and approve which candidate? choose 1, 2\n"
                + "rename and approve which candidate? name: name: "
                + "approved: accessory 00000000000000a1 (/org/accessoryagent/accessory/00000000000000a1)\n"))
        #expect(admin.calls.suffix(2) == ["Approve 3 1 Porch sensor", "ListRequests"])
    }

    @Test func anEmptyLineListsTheCandidatesAgain() throws {
        let result = try admin.run(["pick"], input: "\nr 2\nGate\n")
        #expect(result.out.hasPrefix(Self.table + Self.prompt + Self.table + Self.prompt + "name: "))
        #expect(admin.calls == ["ListRequests", "ListCandidates 3", "ListRequests", "ListCandidates 3", "Approve 3 2 Gate", "ListRequests"])
    }

    /// The approved accessory asks for pairing: pick waits for its question, reads the passkey, and says how it ended.
    @Test func aPairingAfterTheApprovalIsFollowedAndItsPasskeyRead() throws {
        admin.pairing = [3]
        admin.questions = [(3, 1, "passkey-entry", "")]
        let result = try admin.run(["pick"], input: "1\n12345\n012345\n")
        #expect(result.status == 0, "\(result.err)")
        let ask = "passkey \"Lab Sensor\" shows (6 digits, or n to reject): "
        #expect(result.out == Self.table + Self.prompt
                + "approved: accessory 00000000000000a1 (/org/accessoryagent/accessory/00000000000000a1)\n"
                + "pairing 00000000000000a1; the accessory may ask something\n"
                + ask + "six digits, or n\n" + ask + "paired: accessory 00000000000000a1\n")
        #expect(admin.calls.contains("AnswerPairing 3 1 012345"))
        #expect(!admin.calls.contains { $0.hasPrefix("AnswerPairing 3 1 12345 ") })
    }

    @Test func aNumberToCompareIsConfirmedOrRejected() throws {
        admin.pairing = [3]
        admin.questions = [(3, 1, "numeric-comparison", "004711")]
        let result = try admin.run(["pick"], input: "1\nmaybe\nn\n")
        // Rejected, the pairing fails: nothing granted, and pick says so as an error.
        #expect(result.status == 1, "\(result.err)")
        let ask = "does \"Lab Sensor\" show 004711? [y/n] "
        #expect(result.out.hasSuffix(ask + "y or n\n" + ask), "\(result.out)")
        #expect(result.err == "accessoryctl: pick: pairing failed: nothing was granted "
                + "(the app was told why; 'journalctl -u accessoryd' says it too)\n")
        #expect(admin.calls.contains("AnswerPairing 3 1 no"))
    }

    @Test func quitLeavesTheRequestPending() throws {
        let result = try admin.run(["pick"], input: "q\n")
        #expect(result == (0, Self.table + Self.prompt + "request 3 left pending\n", ""))
        #expect(!admin.calls.contains { $0.hasPrefix("Approve") || $0.hasPrefix("Deny") })
    }

    @Test func theEndOfTheInputIsNoDecision() throws {
        let result = try admin.run(["pick"], input: "")
        #expect(result.status == 1)
        #expect(result.err == "accessoryctl: pick: no decision: the input ended\n")
        #expect(admin.calls == ["ListRequests", "ListCandidates 3"])
    }

    @Test func aMigrationIsApprovedWithZero() throws {
        admin.requests = [.init(number: 5, app: "acme-logger", kind: "migration", items: ["Old sensor"])]
        admin.candidates = [5: []]
        let result = try admin.run(["pick"], input: "1\n0\n")
        #expect(result.status == 0)
        #expect(result.out.contains("approve the migration? [0 approve, d deny, Enter list again, q quit] no candidate 1: choose 0\n"))
        // Then the accessories again: what the migration granted is printed item by item.
        #expect(admin.calls.suffix(2) == ["Approve 5 0 ", "ListAccessories"])
    }

    @Test func theOldestReadyRequestComesFirstAndTheOthersAreMentioned() throws {
        // Listed out of order: the lowest number is the oldest.
        admin.requests = [
            .init(number: 6, app: "lockd", kind: "picker", items: ["Back door"]),
            .init(number: 2, app: "lockd", kind: "picker", items: ["Front door"]),
            .init(number: 7, app: "cams", kind: "picker", items: ["Camera"]),
            admin.requests[0],
        ]
        admin.candidates[2] = []
        admin.candidates[6] = [.init(number: 1, item: "Back door", name: "Lock", kind: "bluetooth", identity: "00:AA:01:01:00:09/random", rssi: -40)]
        admin.candidates[7] = [.init(number: 1, item: "Camera", name: "Cam", kind: "wifi", identity: "CAM-1", rssi: -45)]
        let result = try admin.run(["pick"], input: "q\n")
        #expect(result.out == Self.table + "(also pending: request 6, 7; answer one with --request NUMBER)\n"
                + Self.prompt + "request 3 left pending\n")

        let chosen = try admin.run(["pick", "--request", "6"], input: "1\n")
        #expect(chosen.status == 0)
        #expect(chosen.out.hasPrefix("request 6: lockd asks for \"Back door\"\n"))
        #expect(admin.calls.suffix(2) == ["Approve 6 1 ", "ListRequests"])
    }

    @Test func aChosenRequestThatIsNotPendingIsAnError() throws {
        let result = try admin.run(["pick", "--request", "8"])
        #expect(result == (1, "", "accessoryctl: pick: no pending request 8\n"))
    }

    @Test func theDaemonsRefusalEndsThePick() throws {
        admin.errors["Approve"] = BusError(name: "org.accessoryagent.Error.invalidRequest", message: "request 3 has ended")
        let result = try admin.run(["pick"], input: "1\n")
        #expect(result.status == 1)
        #expect(result.err == "accessoryctl: pick: invalidRequest: request 3 has ended\n")
    }
}
