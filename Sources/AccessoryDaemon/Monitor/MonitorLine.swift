import AccessoryCore
import AccessoryDecisions

/// `accessoryd --monitor`'s output: one line per device update, stable
/// enough for scripts and the lab to parse (`key=value` after the kind),
/// ending in ` matches=` and the descriptors matched (`app#id`, sorted) when any.
public enum MonitorLine {
    public static func format(_ sighting: DiscoveryPipeline.Sighting) -> String {
        let encoder = MonitorLineEncoder()
        encoder.append(sighting)
        return String(decoding: encoder.bytes, as: UTF8.self)
    }
}
