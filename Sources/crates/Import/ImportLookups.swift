import CratesCore
import CratesNet
import CratesStore
import Foundation

/// The Discogs half of `crates import`, after the records are stored: first the rows known
/// only by a release id (Discogs names their barcode, and they are added matched), then the
/// lookup queue drained by the real `LookupWorker` at Discogs' rate, until nothing is due.
/// Ctrl-C cancels the worker: the lookup in hand goes back to the queue untouched.
struct ImportLookups: Sendable {
    let store: CatalogueStore
    let client: DiscogsClient
    let progress: ImportProgress
    let interrupt: ImportInterrupt

    /// Why the lookups ended before the queue was drained.
    enum Stop: Hashable, Sendable {
        case interrupted
        case unauthorized(String)
        case offline(String)
    }

    struct Outcome: Sendable {
        var counts = ImportProgress.Lookups()
        /// Rows known by release id that are still not in the collection.
        var unresolved: [ImportUnresolved] = []
        /// The barcodes Discogs named for the release rows that were added.
        var addedGTINs: [GTIN] = []
        var stop: Stop?
    }

    /// How often the drain looks at the worker and redraws the progress.
    static let pollInterval: Duration = .milliseconds(200)

    func run(releaseRows: [ImportEntry]) async -> Outcome {
        var outcome = Outcome()
        let due = (try? await store.dueLookups()) ?? 0
        outcome.counts.total = releaseRows.count + due
        if !releaseRows.isEmpty { await addReleases(releaseRows, into: &outcome) }
        if outcome.stop == nil, due > 0 { await drain(into: &outcome) }
        progress.lookups(outcome.counts, final: true)
        progress.finish()
        return outcome
    }

    // MARK: Rows known by release id

    /// Fetches each release; its barcode (`ReleaseBarcodes.gtin(in:)`, as the TUI's add by
    /// release id) makes the record, stored matched to the release.
    private func addReleases(_ rows: [ImportEntry], into outcome: inout Outcome) async {
        // Fetched once per release, however many copies of it the file lists.
        var fetched: [Int: Release] = [:]
        for (index, row) in rows.enumerated() {
            guard let id = row.releaseID else { continue }
            if let stop = outcome.stop ?? (interrupt.isRequested ? .interrupted : nil) {
                outcome.stop = stop
                outcome.unresolved += rows[index...].map { ImportUnresolved(entry: $0, reason: .stopped(stop)) }
                return
            }
            render(outcome.counts)
            outcome.counts.done += 1
            let release: Release
            do {
                if let known = fetched[id] {
                    release = known
                } else {
                    release = try await client.release(id: id)
                    fetched[id] = release
                }
            } catch {
                switch error {
                case .notFound:
                    outcome.counts.notFound += 1
                    outcome.unresolved.append(ImportUnresolved(entry: row, reason: .noSuchRelease))
                case .unauthorized(let message):
                    outcome.counts.failed += 1
                    outcome.stop = .unauthorized(message)
                    outcome.unresolved.append(ImportUnresolved(entry: row, reason: .stopped(.unauthorized(message))))
                default:
                    outcome.counts.failed += 1
                    if error.isOffline { outcome.stop = .offline(error.description) }
                    outcome.unresolved.append(ImportUnresolved(entry: row, reason: .failed(error.description)))
                }
                continue
            }
            guard let gtin = ReleaseBarcodes.gtin(in: release) else {
                outcome.counts.notFound += 1
                outcome.unresolved.append(ImportUnresolved(entry: row, reason: .noBarcode))
                continue
            }
            do {
                _ = try await store.add(NewRecord(
                    gtin: gtin, addedAt: row.addedAt ?? Date(), addMethod: .import, note: row.note,
                    location: row.location, release: release))
                outcome.counts.matched += 1
                outcome.addedGTINs.append(gtin)
            } catch {
                outcome.counts.failed += 1
                outcome.unresolved.append(ImportUnresolved(entry: row, reason: .failed(error.description)))
            }
        }
    }

    // MARK: The queue

    /// Runs the worker until no lookup is due, Discogs cannot be reached or refuses the
    /// credentials, or the user interrupts.
    private func drain(into outcome: inout Outcome) async {
        let worker = LookupWorker(queue: store, lookup: DiscogsBarcodeLookup(client: client))
        let running = Task { await worker.run() }
        // Cancelling, not stopping: a stop would wait for the lookup in hand, which may wait a
        // whole minute for the rate limit. Cancelled, the worker gives the record back.
        interrupt.onRequest { running.cancel() }
        let before = outcome.counts
        while true {
            try? await Task.sleep(for: Self.pollInterval)
            let statistics = await worker.statistics
            outcome.counts.done = before.done + statistics.lookups
            outcome.counts.matched = before.matched + statistics.matched
            outcome.counts.ambiguous = before.ambiguous + statistics.ambiguous
            outcome.counts.notFound = before.notFound + statistics.notFound
            outcome.counts.skipped = before.skipped + statistics.skipped
            outcome.counts.failed = before.failed + statistics.failed
            outcome.counts.secondsLeft = await secondsLeft(outcome.counts, statistics)
            render(outcome.counts)
            if interrupt.isRequested {
                outcome.stop = .interrupted
                break
            }
            let status = await worker.status
            switch status {
            case .unauthorized(let message):
                outcome.stop = .unauthorized(message)
            case .offline:
                outcome.stop = .offline("Discogs cannot be reached")
            case .stopped:
                break
            case .idle:
                // Idle also before the first claim: done only when nothing is due.
                if let due = try? await store.dueLookups(), due > 0 { continue }
            case .working, .rateLimited:
                continue
            }
            break
        }
        if outcome.stop == .interrupted {
            running.cancel()
        } else {
            await worker.stop()
        }
        _ = await running.value
        let statistics = await worker.statistics
        outcome.counts.done = before.done + statistics.lookups
        outcome.counts.matched = before.matched + statistics.matched
        outcome.counts.ambiguous = before.ambiguous + statistics.ambiguous
        outcome.counts.notFound = before.notFound + statistics.notFound
        outcome.counts.skipped = before.skipped + statistics.skipped
        outcome.counts.failed = before.failed + statistics.failed
        outcome.counts.secondsLeft = nil
    }

    /// The time the lookups left take at the rate limit: each costs the requests a lookup
    /// has cost so far (two until a few have been made: a search and the release).
    private func secondsLeft(_ counts: ImportProgress.Lookups, _ statistics: LookupWorker.Statistics) async -> Double? {
        let remaining = max(0, counts.total - counts.done)
        guard remaining > 0 else { return nil }
        let perLookup = statistics.lookups >= 3 ? Double(statistics.requests) / Double(statistics.lookups) : 2
        let limiter = client.rateLimiter
        let configuration = await limiter.configuration
        return Double(remaining) * perLookup * configuration.window / Double(max(1, configuration.limit))
    }

    private func render(_ counts: ImportProgress.Lookups) {
        progress.lookups(counts)
    }
}

/// A row known only by a Discogs release id that is not in the collection, and why.
struct ImportUnresolved: Hashable, Sendable {
    enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// `--no-lookup`.
        case lookupsOff
        /// No saved Discogs credentials.
        case notSignedIn
        /// The release lists no barcode crates can read.
        case noBarcode
        /// Discogs has no such release (deleted or merged).
        case noSuchRelease
        case failed(String)
        case stopped(ImportLookups.Stop)

        var description: String {
            switch self {
            case .lookupsOff:
                "its barcode comes from Discogs: import again without --no-lookup"
            case .notSignedIn:
                "its barcode comes from Discogs: run `crates auth`, then import again"
            case .noBarcode:
                "the Discogs release lists no barcode: scan the record's barcode in crates"
            case .noSuchRelease:
                "Discogs has no such release (deleted or merged?): scan the record's barcode in crates"
            case .failed(let message):
                "\(message): import again later"
            case .stopped(.interrupted):
                "the import was interrupted: import again"
            case .stopped(.unauthorized):
                "Discogs refused the credentials: run `crates auth`, then import again"
            case .stopped(.offline):
                "Discogs cannot be reached: import again later"
            }
        }
    }

    var entry: ImportEntry
    var reason: Reason
}
