import AccessoryCore
import AccessoryPlatform

/// Approving a migration (candidate 0) and saying what it did: which items
/// became accessories, which were skipped and why. The daemon approves a
/// migration whole or refuses it (naming what another app holds); what was
/// granted is read from the accessories before and after, by identity.
enum MigrationApproval {
    /// Approves request `number` as a migration; the text to print.
    static func approve(_ number: UInt32, _ client: AdminClient) throws(AdminError) -> String {
        let items = try client.listCandidates(request: number)
        let before = Set(try client.listAccessories().map(\.id))
        _ = try client.approve(request: number, candidate: 0, name: "")
        let after = try client.listAccessories()
        return AdminFormat.migrationApproved(number, items: items, before: before, after: after)
    }
}

extension AdminFormat {
    /// One line for the request, then one per item: granted (with the new
    /// accessory's id) or skipped (whose it was already). Never an accessory
    /// path when nothing was granted.
    static func migrationApproved(_ number: UInt32, items: [Candidate], before: Set<String>, after: [AccessorySummary]) -> String {
        var lines: [String] = []
        var granted = 0
        for item in items {
            let what = "\(DisplayText.quoted(item.item)) (\(DisplayText.escaped(item.identity)))"
            guard let holder = after.first(where: { $0.identity == item.identity }) else {
                lines.append("  not granted: \(what): no accessory has that identity now")
                continue
            }
            if before.contains(holder.id) {
                lines.append("  skipped: \(what): already accessory \(holder.id) of \(DisplayText.escaped(holder.app))")
            } else {
                granted += 1
                lines.append("  granted: \(what) as accessory \(holder.id) (\(AccessoryPath.prefix)\(holder.id))")
            }
        }
        let head = "approved: migration request \(number): \(granted) of \(items.count) item(s) granted"
            + (granted == 0 ? ", nothing new" : "")
        return ([head] + lines).joined(separator: "\n") + "\n"
    }
}
