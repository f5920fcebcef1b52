/// Turns a decoder's stream of readings into scans. A decoder reports the code in view many
/// times a second; a scan is reported when a code appears, not again while it stays in view,
/// and again once it has been out of view for `hold` (so two copies of one record, scanned one
/// after the other, are two scans).
///
/// "In view" means read less than `hold` ago: short gaps (a missed frame, a hand moving) do
/// not count as leaving. The clock is injected: each reading comes with its instant, so tests
/// step time instead of sleeping.
public struct ScanDeduplicator<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    /// The default hold time, 1.5 s: longer than a decoder's gaps between frames, shorter than
    /// it takes to swap one record for the next.
    public static var defaultHold: Duration { .milliseconds(1500) }

    public let hold: Duration
    private var lastSeen: [Key: Instant] = [:]

    private struct Key: Hashable, Sendable {
        let symbology: ScanSymbology
        let data: String
    }

    public init(hold: Duration = Self.defaultHold) {
        self.hold = hold
    }

    /// Records a reading at `now`; true when it is a new scan to report.
    public mutating func admit(_ symbology: ScanSymbology, _ data: String, at now: Instant) -> Bool {
        let key = Key(symbology: symbology, data: data)
        let previous = lastSeen.updateValue(now, forKey: key)
        // Forget codes long gone, so the table stays as small as what is in view.
        if lastSeen.count > 32 {
            lastSeen = lastSeen.filter { $0.value.duration(to: now) < hold }
        }
        guard let previous else { return true }
        return previous.duration(to: now) >= hold
    }

    /// How many codes are remembered (those read less than `hold` ago, give or take pruning).
    public var remembered: Int { lastSeen.count }
}
