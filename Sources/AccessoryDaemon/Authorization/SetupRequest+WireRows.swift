import AccessoryCore
import AccessoryWire

/// What Admin1 and PickerAgent1 say about a pending request, built in one
/// place so accessoryctl, the Cockpit page and picker agents see the same.
extension SetupRequest {
    /// A `ListRequests` row as of `now`.
    func wireRow(at now: MonotonicInstant) -> WireRequestRow {
        WireRequestRow(
            number: number, app: "\(app)", kind: isMigration ? WireRequestRow.migrationKind : WireRequestRow.pickerKind,
            items: itemNames, candidateCount: UInt32(visibleCandidates.count), images: itemImages,
            secondsLeft: secondsLeft(at: now).map { Int32(clamping: $0) } ?? WireRequestRow.noDeadline)
    }

    /// The item name a candidate was found for ("" when out of range).
    func itemName(of candidate: SetupCandidate) -> String {
        let names = itemNames
        return names.indices.contains(candidate.item) ? names[candidate.item] : ""
    }

    /// A `ListCandidates` row.
    func wireRow(of candidate: SetupCandidate) -> WireCandidateRow {
        WireCandidateRow(number: candidate.number, item: itemName(of: candidate), name: candidate.name,
                         kind: candidate.identity.kind, identity: "\(candidate.identity)",
                         rssi: BusRSSI.encode(candidate.rssi), image: image(of: candidate))
    }
}
