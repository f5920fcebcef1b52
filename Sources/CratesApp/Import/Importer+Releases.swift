import CratesCore
import CratesNet
import CratesStore
import Foundation

/// The lookups of an import: the rows known only by a release id, then the queue.
struct ReleaseLookups: Sendable {
    var counts = LookupCounts()
    var total = 0
    /// Rows known by release id that are still not in the collection.
    var unresolved: [ImportUnresolved] = []
    /// The barcodes Discogs named for the release rows that were added.
    var addedGTINs: [GTIN] = []
    /// Release rows added (with a barcode or without: a release may list none).
    var added = 0
    var stop: LookupDriver.Stop?
}

extension Importer {
    /// Fetches each release; its barcode (`ReleaseBarcodes.gtin(in:)`, as adding by release
    /// id anywhere), or none when it lists none, makes the record, stored matched to the
    /// release with the row's note, date and location.
    func addReleases(_ rows: [ImportEntry], client: DiscogsClient, into outcome: inout ReleaseLookups) async {
        // Fetched once per release, however many copies of it the file lists.
        var fetched: [Int: Release] = [:]
        for (index, row) in rows.enumerated() {
            guard let id = row.releaseID else { continue }
            if let stop = outcome.stop ?? (stopRequest.isRequested ? .interrupted : nil) {
                outcome.stop = stop
                outcome.unresolved += rows[index...].map { ImportUnresolved(entry: $0, reason: .stopped(stop)) }
                return
            }
            progress.lookups(.init(counts: outcome.counts, total: outcome.total))
            let release: Release
            do {
                if let known = fetched[id] {
                    release = known
                } else {
                    // Through transient failures, as the queue's lookups.
                    var retry = RequestRetry()
                    defer { outcome.counts.requests += retry.requests }
                    release = try await retry.send { () async throws(DiscogsError) in try await client.release(id: id) }
                    fetched[id] = release
                }
            } catch {
                switch error {
                case .notFound:
                    outcome.counts.count(.notFound)
                    outcome.unresolved.append(ImportUnresolved(entry: row, reason: .noSuchRelease))
                case .unauthorized(let message):
                    outcome.counts.count(.failed)
                    outcome.stop = .unauthorized(message)
                    outcome.unresolved.append(ImportUnresolved(entry: row, reason: .stopped(.unauthorized(message))))
                default:
                    outcome.counts.count(.failed)
                    if error.isOffline { outcome.stop = .offline }
                    outcome.unresolved.append(ImportUnresolved(entry: row, reason: .failed(error.description)))
                }
                continue
            }
            // A release that lists no barcode makes a record without one.
            let gtin = ReleaseBarcodes.gtin(in: release)
            do {
                _ = try await store.add(NewRecord(
                    gtin: gtin, addedAt: row.addedAt ?? Date(), addMethod: .import, note: row.note,
                    location: row.location, release: release, grading: row.grading))
                outcome.counts.count(.matched)
                outcome.added += 1
                if let gtin { outcome.addedGTINs.append(gtin) }
            } catch {
                outcome.counts.count(.failed)
                outcome.unresolved.append(ImportUnresolved(entry: row, reason: .failed(error.description)))
            }
        }
    }
}
