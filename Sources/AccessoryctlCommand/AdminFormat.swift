import AccessoryCore
import AccessoryWire

/// How accessoryctl shows requests, candidates and accessories. Pure: the
/// commands print what these return.
enum AdminFormat {
    static func requests(_ requests: [RequestWithCandidates]) -> String {
        guard !requests.isEmpty else { return "no pending requests\n" }
        return requests.map(request).joined(separator: "\n")
    }

    /// One request, then its candidates as a table.
    static func request(_ entry: RequestWithCandidates) -> String {
        let request = entry.request
        let items = request.items.map(DisplayText.quoted).joined(separator: ", ")
        var lines: [String]
        if request.isMigration {
            lines = ["request \(request.number): \(DisplayText.escaped(request.app)) migrates \(items)"
                + " (approve it as a whole: candidate 0)"]
        } else {
            lines = ["request \(request.number): \(DisplayText.escaped(request.app)) asks for \(items)"]
        }
        for (item, image) in zip(request.items, request.images) where !image.isEmpty {
            lines.append("  product image of \(DisplayText.quoted(item)): \(DisplayText.escaped(image))")
        }
        if let seconds = request.secondsLeft {
            lines.append("  discovery ends in \(seconds) s")
        }
        if entry.candidates.isEmpty {
            if !request.isMigration { lines.append("  no candidates yet") }
        } else {
            lines += candidateTable(entry.candidates).lines(indent: "  ")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func candidateTable(_ candidates: [Candidate]) -> TextTable {
        TextTable(
            header: ["CANDIDATE", "ITEM", "DEVICE", "KIND", "ADDRESS/SSID", "RSSI"],
            rows: candidates.map {
                [String($0.number), DisplayText.cell($0.item), DisplayText.cell($0.name), DisplayText.cell($0.kind),
                 DisplayText.cell($0.identity), rssi($0.rssi)]
            })
    }

    static func accessories(_ accessories: [AccessorySummary]) -> String {
        guard !accessories.isEmpty else { return "no accessories\n" }
        let table = TextTable(
            header: ["ID", "APP", "NAME", "STATE", "ADDRESS/SSID", "PRESENT", "LAST SEEN"],
            rows: accessories.map {
                [DisplayText.cell($0.id), DisplayText.cell($0.app), DisplayText.cell($0.name),
                 DisplayText.cell($0.state), DisplayText.cell($0.identity), $0.present ? "yes" : "no", lastSeen($0.secondsSinceHeard)]
            })
        return table.lines().joined(separator: "\n") + "\n"
    }

    /// `12 s ago`, `4 min ago`, `3 h ago`; `-` when not heard since accessoryd started.
    static func lastSeen(_ seconds: Int?) -> String {
        guard let seconds else { return "-" }
        switch seconds {
        case ..<120: return "\(seconds) s ago"
        case ..<7200: return "\(seconds / 60) min ago"
        default: return "\(seconds / 3600) h ago"
        }
    }

    /// dBm; 127 is HCI's "not available" (as `accessoryd --monitor` shows it).
    static func rssi(_ value: Int32) -> String { BusRSSI.decode(value).map(String.init) ?? "none" }

    static func pairingQuestions(_ questions: [WirePairingQuestion]) -> String {
        guard !questions.isEmpty else { return "no pairing questions\n" }
        let table = TextTable(
            header: ["REQUEST", "PROMPT", "KIND", "NUMBER", "ACCESSORY", "APPROVER", "SECONDS LEFT"],
            rows: questions.map {
                [String($0.request), String($0.prompt), DisplayText.cell($0.kind), $0.number.isEmpty ? "-" : DisplayText.cell($0.number),
                 DisplayText.cell($0.accessoryName), DisplayText.cell($0.approver), $0.secondsLeft < 0 ? "-" : String($0.secondsLeft)]
            })
        return table.lines().joined(separator: "\n") + "\n"
    }

    /// A question as `pick` puts it to the person; nil for a kind this accessoryctl does not know.
    static func pairingPrompt(_ question: WirePairingQuestion) -> String? {
        let name = DisplayText.quoted(question.accessoryName)
        switch question.kind {
        case WirePairingQuestion.justWorks: return "pair \(name) without a number (Just Works)? [y/n] "
        case WirePairingQuestion.numericComparison:
            return "does \(name) show \(DisplayText.escaped(question.number))? [y/n] "
        case WirePairingQuestion.passkeyEntry: return "passkey \(name) shows (6 digits, or n to reject): "
        case WirePairingQuestion.passkeyDisplay:
            return "type \(DisplayText.escaped(question.number)) on \(name)\n"
        default: return nil
        }
    }

    /// What `approve` prints: the accessory's id and its object path.
    static func approved(_ path: String) -> String {
        "approved: accessory \(AccessoryPath.id(path)) (\(path))\n"
    }
}
