/// One app's descriptor that something heard matched: the unit the matching
/// index returns, and the key it stores descriptors under.
public struct DescriptorMatch: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var app: AppID
    public var descriptorID: DescriptorID

    public init(app: AppID, descriptorID: DescriptorID) {
        self.app = app
        self.descriptorID = descriptorID
    }

    public var description: String { "\(app)\(descriptorID)" }
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.app, lhs.descriptorID) < (rhs.app, rhs.descriptorID)
    }
}
