import CratesCore
import CratesTestSupport
import Foundation

/// An in-memory twin of the store's lookup queue, with the same claim and lease rules:
/// pending first (oldest first), then failed whose retry time has passed, then `lookingUp`
/// whose lease has expired; a claim marks the record `lookingUp` until `now + lease`.
actor InMemoryLookupQueue: LookupQueue {
    struct Entry: Sendable {
        var recordID: Int64
        var gtin: GTIN
        var state: LookupState = .pending
        var attempts = 0
        var retryAt: Date?
        var leaseUntil: Date?
        var outcome: LookupOutcome?
        var history: [LookupOutcome] = []
    }

    private(set) var entries: [Int64: Entry] = [:]
    private var nextID: Int64 = 1
    private(set) var claims: [Int64] = []

    @discardableResult
    func enqueue(_ gtin: GTIN) -> Int64 {
        let id = nextID
        nextID += 1
        entries[id] = Entry(recordID: id, gtin: gtin)
        return id
    }

    func entry(_ id: Int64) -> Entry? { entries[id] }

    var all: [Entry] { entries.values.sorted { $0.recordID < $1.recordID } }

    /// Makes every failed record due now (a test's way to skip the backoff).
    func makeFailedDue() {
        for (id, e) in entries where e.state == .failed { entries[id]?.retryAt = .distantPast }
    }

    func claimNext(now: Date, lease: TimeInterval) async throws -> LookupJob? {
        let ordered = all
        let due =
            ordered.first { $0.state == .pending }
            ?? ordered.first { $0.state == .failed && ($0.retryAt ?? .distantPast) <= now }
            ?? ordered.first { $0.state == .lookingUp && ($0.leaseUntil ?? .distantPast) <= now }
        guard let e = due else { return nil }
        entries[e.recordID]?.state = .lookingUp
        entries[e.recordID]?.leaseUntil = now.addingTimeInterval(lease)
        claims.append(e.recordID)
        return LookupJob(recordID: e.recordID, gtin: e.gtin, attempts: e.attempts)
    }

    func complete(_ job: LookupJob, with outcome: LookupOutcome) async throws {
        guard var e = entries[job.recordID], e.state == .lookingUp else { return }
        e.attempts += 1
        e.leaseUntil = nil
        e.outcome = outcome
        e.history.append(outcome)
        switch outcome {
        case .matched: e.state = .matched
        case .ambiguous: e.state = .ambiguous
        case .notFound: e.state = .notFound
        case .skipped: e.state = .skipped
        case .failed(_, let retryAt):
            e.state = .failed
            e.retryAt = retryAt
        }
        entries[job.recordID] = e
    }

    func release(_ job: LookupJob) async throws {
        guard entries[job.recordID]?.state == .lookingUp else { return }
        entries[job.recordID]?.state = job.attempts == 0 ? .pending : .failed
        entries[job.recordID]?.retryAt = .distantPast
        entries[job.recordID]?.leaseUntil = nil
    }

    func waitingCount() async throws -> Int {
        entries.values.filter { [.pending, .failed, .lookingUp].contains($0.state) }.count
    }
}
