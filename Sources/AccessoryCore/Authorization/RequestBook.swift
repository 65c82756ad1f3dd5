/// The open setup requests: numbered from 1, at most one per app, each with
/// its candidates and its discovery deadline.
public struct RequestBook: Sendable {
    public private(set) var open: [UInt32: SetupRequest] = [:]
    private var nextNumber: UInt32 = 1

    public init() {}

    public var isEmpty: Bool { open.isEmpty }

    public subscript(number: UInt32) -> SetupRequest? { open[number] }

    /// The request the session opened, if one is open.
    public func request(ofSession session: UInt64) -> SetupRequest? {
        open.values.first { $0.session == session }
    }

    /// Open requests in the order they were opened.
    public var inOrder: [SetupRequest] { open.keys.sorted().map { open[$0]! } }

    /// An app has one picker at a time, as on a phone.
    func checkNone(for app: AppID) throws(AccessorySetupError) {
        if open.values.contains(where: { $0.app == app }) {
            throw AccessorySetupError(.pickerAlreadyActive, reason: .message("\(app) already has a picker open"))
        }
    }

    /// Opens a request under the next number.
    mutating func open(
        app: AppID, session: UInt64, kind: SetupRequest.Kind, settings: PickerDisplaySettings, at now: MonotonicInstant
    ) -> SetupRequest {
        let request = SetupRequest(number: nextNumber, app: app, session: session, kind: kind, settings: settings, opened: now)
        nextNumber &+= 1
        if nextNumber == 0 { nextNumber = 1 }
        open[request.number] = request
        return request
    }

    mutating func update(_ request: SetupRequest) { open[request.number] = request }

    mutating func close(_ number: UInt32) { open.removeValue(forKey: number) }

    /// The earliest discovery deadline, if any request has one.
    public var nextDeadline: MonotonicInstant? { open.values.compactMap(\.discoveryDeadline).min() }

    /// Numbers of the requests whose discovery ran out by `now`, in order.
    func discoveryOver(at now: MonotonicInstant) -> [UInt32] {
        open.keys.sorted().filter { number in open[number]!.discoveryDeadline.map { $0 <= now } ?? false }
    }

    /// What the matching index must hold for a request while it discovers.
    static func descriptors(of request: SetupRequest) -> [(DescriptorMatch, DiscoveryDescriptor)] {
        request.pickerItems.enumerated().map { index, item in
            (DescriptorMatch(app: request.app, descriptorID: RequestDescriptorID.make(request: request.number, item: index)),
             item.descriptor)
        }
    }
}
