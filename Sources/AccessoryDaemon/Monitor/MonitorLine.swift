import AccessoryCore

/// `accessoryd --monitor`'s output: one line per device update, stable
/// enough for scripts and the lab to parse (`key=value` after the kind).
public enum MonitorLine {
    public static func format(_ sighting: DiscoveryPipeline.Sighting) -> String {
        switch sighting {
        case .bluetooth(let advertisement, let matches):
            return bluetooth(advertisement) + suffix(matches)
        case .wifi(let network, let matches):
            return wifi(network) + suffix(matches)
        }
    }

    private static func suffix(_ matches: Set<DescriptorMatch>) -> String {
        guard !matches.isEmpty else { return "" }
        return " matches=" + matches.map(\.description).sorted().joined(separator: ",")
    }
}
