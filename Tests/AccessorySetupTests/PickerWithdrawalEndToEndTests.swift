import AccessoryCore
import AccessoryPlatform
import Testing
import TestSupport
@testable import AccessorySetup

/// The library withdrawing a picker from the real accessoryd: once the app
/// gives up, the request is gone for the administrator too, not only for
/// the task that stopped waiting.
@Suite(.timeLimit(.minutes(1)))
struct PickerWithdrawalEndToEndTests {
    let bus: PrivateBus

    init() throws { bus = try PrivateBus() }

    static let withdrawn = AccessorySetupError(.userCancelled, reason: .message("withdrawn by the app"))
    static let nothingPending = "a(ussasuasi) 0\n"

    @Test func cancellingTheTaskAwaitingShowPickerWithdrawsTheRequest() async throws {
        let accessoryd = try await RealAccessoryd(bus: bus)
        var app = try await PickerUnderWay(busAddress: bus.address)
        let picker = try await app.showAndWaitUntilPresented()
        // The row ends with the seconds discovery has left, which the real clock decides.
        #expect(try accessoryd.listedRequests().hasPrefix("a(ussasuasi) 1 1 \"acme-lights\" \"picker\" 1 \"Porch lamp\" 0 1 \"\" "))

        picker.cancel()

        await #expect(throws: AccessorySetupError.pickerTaskCancelled) { try await picker.value }
        // accessoryd's answer to the withdrawal; by then the administrator has nothing to decide.
        #expect(try await app.next() == AccessoryEvent(.pickerDidDismiss, error: Self.withdrawn))
        #expect(try accessoryd.listedRequests() == Self.nothingPending)
        #expect(try await !accessoryd.grantsAnything())
        app.session.invalidate()
    }

    @Test func dismissPickerEndsTheWaitingShowPicker() async throws {
        let accessoryd = try await RealAccessoryd(bus: bus)
        var app = try await PickerUnderWay(busAddress: bus.address)
        #expect(try await app.next().eventType == .activated)
        await #expect(throws: AccessorySetupError(.invalidRequest, reason: .message("no picker is open"))) {
            try await app.session.dismissPicker()
        }
        let picker = app.show()
        #expect(try await app.next().eventType == .pickerDidPresent)

        try await app.session.dismissPicker()

        await #expect(throws: Self.withdrawn) { try await picker.value }
        #expect(try accessoryd.listedRequests() == Self.nothingPending)
        app.session.invalidate()
    }
}
