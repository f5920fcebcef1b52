/// A Discogs sync as the collection UI's status line follows it.
public enum SyncStatus: Equatable, Sendable {
    case idle
    /// Reading the collection's pages: `done` copies of `total` (nil until the first page).
    case reading(done: Int, total: Int?)
    /// Sending crates' changes: `done` of `total`.
    case pushing(done: Int, total: Int)
    /// Waiting for another sync of the same collection (process `pid`) to end: one writes
    /// at a time.
    case waiting(pid: Int32?)
    /// `crates value --refresh` asking Discogs' marketplace: `done` requests of `total`
    /// (the same progress line as a sync's, never in the UI's status line).
    case pricing(done: Int, total: Int)

    /// "sync: reading 300/5,000", "sync: pushing 2/3"; nil when idle.
    public var text: String? {
        switch self {
        case .idle: nil
        case .reading(let done, let total?): "sync: reading \(NumberText.grouped(done))/\(NumberText.grouped(total))"
        case .reading(let done, nil): "sync: reading \(NumberText.grouped(done))"
        case .pushing(let done, let total): "sync: pushing \(done)/\(total)"
        case .waiting(let pid?): "sync: waiting for another crates sync of this collection (pid \(pid)) to end"
        case .waiting(nil): "sync: waiting for another crates sync of this collection to end"
        case .pricing(let done, let total): "value: asking Discogs \(done)/\(total)"
        }
    }

    /// The text with the time left at Discogs' rate: "sync: pushing 53/199 · 3 min left".
    public func text(secondsLeft: Double?) -> String? {
        guard let text else { return nil }
        guard let secondsLeft, secondsLeft > 0 else { return text }
        return text + " · " + ProgressText.duration(secondsLeft) + " left"
    }

    /// The short form, for a narrow status line.
    public var shortText: String? { self == .idle ? nil : "syncing" }
}

/// Numbers as the screens and messages write them.
public enum NumberText {
    /// 12,345: thousands grouped, locale-independent so screens are stable in tests.
    public static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }
}

/// A yes/no question the application asks the person after a sync (e.g. whether to remove
/// on Discogs the copies deleted in crates): `yes` is what a yes sends.
public struct SyncQuestion: Equatable, Sendable {
    /// Without "(y/N)".
    public var text: String
    public var yes: SessionRequest
    /// What the status line says after a no.
    public var declined: String

    public init(text: String, yes: SessionRequest, declined: String) {
        self.text = text
        self.yes = yes
        self.declined = declined
    }
}
