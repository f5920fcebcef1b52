import CratesCore
import CratesNet
import CratesStore
import Foundation

/// The lookups of an import: the rows known only by a release id, then the queue.
struct ReleaseLookups: Sendable {
    var counts = LookupCounts()
    var total = 0
    /// Rows known by release id that are still not in the collection (on disk: `ImportUnresolvedRows`).
    var unresolved: ImportUnresolvedRows
    /// The barcodes Discogs named for the release rows that were added.
    var addedGTINs: [GTIN] = []
    /// Release rows added (with a barcode or without: a release may list none).
    var added = 0
    /// Release rows whose copy the collection held by the time Discogs named it (another
    /// import, or an add, got there first).
    var present = 0
    var stop: LookupDriver.Stop?
    /// Why lookups failed in this run (each reason once, in order), for the summary.
    var failures: [String] = []
}

/// A row known only by a Discogs release id, and how many copies of that release the
/// collection should hold once it is added (its occurrence in the file; nil with `--copies`:
/// added whatever the collection holds).
struct ReleaseRow: Sendable {
    /// The row's position in the file's entries (read when its turn comes: a whole
    /// `ImportEntry` per row would be the rows in memory).
    var position: Int
    var copiesWanted: Int?
}

extension Importer {
    /// Finds each release: in the local catalogue first (no request, no account: the
    /// record says which catalogue matched it), else on Discogs when `asksDiscogs`; its
    /// barcode (`ReleaseBarcodes.gtin(in:)`, as adding by release id anywhere), or none when
    /// it lists none, makes the record, stored matched to the release with the row's note,
    /// date and location. Without `asksDiscogs` (no account), a release the catalogue does
    /// not list stays unresolved, waiting for an account.
    func addReleases(
        _ rows: [ReleaseRow], of entries: ImportEntries, client: DiscogsClient, asksDiscogs: Bool = true,
        into outcome: inout ReleaseLookups
    ) async {
        // Fetched once per release, however many copies of it the file lists.
        var fetched: [Int: Release] = [:]
        var edition: [Int: CatalogueEdition] = [:]
        for (index, releaseRow) in rows.enumerated() {
            let row = entries[releaseRow.position]
            guard let id = row.releaseID else { continue }
            if let stop = outcome.stop ?? (Task.isCancelled ? .interrupted : nil) {
                outcome.stop = stop
                for rest in rows[index...] {
                    outcome.unresolved.append(ImportUnresolved(entry: entries[rest.position], reason: .stopped(stop)))
                }
                return
            }
            progress.lookups(.init(counts: outcome.counts, total: outcome.total), final: false)
            let release: Release
            do {
                if let known = fetched[id] {
                    release = known
                } else if let catalogue, let listed = try? await catalogue.release(id: id) {
                    // As the catalogue answers a lookup: its full details (tracklist, notes,
                    // images) come from Discogs on demand.
                    var listed = listed
                    listed.hasFullDetails = false
                    release = listed
                    fetched[id] = listed
                    edition[id] = catalogue.edition
                } else if !asksDiscogs {
                    let reason: ImportUnresolved.Reason = catalogue.map { .notInCatalogue($0.edition) } ?? .notSignedIn
                    outcome.unresolved.append(ImportUnresolved(entry: row, reason: reason))
                    continue
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
                case _ where Task.isCancelled:
                    // The stop cut the request short: the row waits, as those after it do.
                    outcome.stop = .interrupted
                    outcome.unresolved.append(ImportUnresolved(entry: row, reason: .stopped(.interrupted)))
                default:
                    outcome.counts.count(.failed)
                    if error.isOffline { outcome.stop = .offline }
                    outcome.unresolved.append(ImportUnresolved(entry: row, reason: .failed(error.description)))
                }
                continue
            }
            // A release that lists no barcode makes a record without one.
            let gtin = ReleaseBarcodes.gtin(in: release)
            var new = NewRecord(
                gtin: gtin, addedAt: row.addedAt ?? Date(), addMethod: .import, note: row.note,
                location: row.location, release: release, collector: row.collector ?? .none, grading: row.grading)
            new.purchase = row.purchase
            new.loan = row.loan
            new.catalogueEdition = edition[id]
            if edition[id] != nil { outcome.counts.fromCatalogue += 1 }
            do {
                // Counted by the release, in the insert's transaction: the row's copy is added
                // only if the collection does not hold it by now (an import of the same file
                // running at once, or run again).
                let added: Bool
                if let wanted = releaseRow.copiesWanted {
                    if case .added = try await store.addIfAbsent(new, copiesWanted: wanted, countedBy: .release(id)) {
                        added = true
                    } else {
                        added = false
                    }
                } else {
                    _ = try await store.add(new)
                    added = true
                }
                outcome.counts.count(.matched)
                if added {
                    outcome.added += 1
                    if let gtin { outcome.addedGTINs.append(gtin) }
                } else {
                    outcome.present += 1
                }
            } catch {
                // A stop while the row was written: the store refused the cancelled task's
                // write whole, and the row waits.
                if Task.isCancelled {
                    outcome.stop = .interrupted
                    outcome.unresolved.append(ImportUnresolved(entry: row, reason: .stopped(.interrupted)))
                    continue
                }
                outcome.counts.count(.failed)
                outcome.unresolved.append(ImportUnresolved(entry: row, reason: .failed(error.description)))
            }
        }
    }
}
