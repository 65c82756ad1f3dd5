import AccessoryCodecs
import AccessoryPlatform
import AccessoryRadios
import Logging

extension Daemon {
    /// `accessoryd --replay FILE`: takes the Bluetooth input from a btsnoop
    /// capture instead of the controllers, through the same path after the
    /// socket, and returns the exit status once the file is done.
    public func replay(capturePath path: String, speed: BtsnoopReplay.Speed) -> Int32 {
        var logger = Logger(label: Self.identifier)
        logger.logLevel = .info
        let bytes: [UInt8]
        do {
            guard let read = try FileSystem.readFileIfPresent(path, limit: 1 << 30) else {
                StandardError.write("accessoryd: \(path): no such file\n")
                return Self.exitFailure
            }
            bytes = read
        } catch {
            StandardError.write("accessoryd: \(path): \(error)\n")
            return Self.exitFailure
        }
        if let monitor { discovery.onSighting(monitor) }
        let ingest = AdvertisingReportIngest(pipeline: discovery)
        let replay: BtsnoopReplay
        do {
            replay = try BtsnoopReplay(capture: bytes, ingest: ingest)
        } catch {
            StandardError.write("accessoryd: \(path): not a btsnoop capture: \(error)\n")
            return Self.exitFailure
        }

        var failure: BtsnoopError?
        do {
            try replay.run(speed: speed, sleep: ReplayPacing.sleep(for:))
        } catch {
            failure = error
        }
        let drops = ingest.allDrops.summary
        logger.info("Replayed \(replay.eventCount) HCI events: \(ingest.advertisementCount) advertisements\(drops.isEmpty ? "" : ", dropped " + drops)")
        if let failure {
            // The records before a damaged one were replayed; say where it stopped.
            StandardError.write("accessoryd: \(path): replay stopped at a damaged record: \(failure)\n")
            return Self.exitFailure
        }
        return 0
    }
}
