/// A sync's progress line on the command line: "sync: pushing [#####-----] 53/199 · rate
/// limit: resuming in 36 s · 3 min left" (`crates sync`, and `crates value --refresh`'s
/// pricing).
extension SyncStatus {
    /// The line with a bar, the rate wait and the time left; nil when idle.
    public func progressLine(secondsLeft: Double?, rateWait: Int?) -> String? {
        var text: String
        switch self {
        case .reading(let done, let total?) where total > 0:
            text = "sync: reading \(ProgressText.bar(done, total, width: 16)) \(NumberText.grouped(done))/\(NumberText.grouped(total))"
        case .pushing(let done, let total) where total > 0:
            text = "sync: pushing \(ProgressText.bar(done, total, width: 16)) \(done)/\(total)"
        case .pricing(let done, let total) where total > 0:
            text = "value: asking Discogs \(ProgressText.bar(done, total, width: 16)) \(done)/\(total)"
        default:
            guard let plain = self.text else { return nil }
            text = plain
        }
        if let rateWait { text += " · " + StatusWording.rateLimit(seconds: rateWait) }
        if let secondsLeft, secondsLeft > 0 { text += " · " + ProgressText.duration(secondsLeft) + " left" }
        return text
    }
}
