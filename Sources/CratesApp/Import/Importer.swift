import CratesCore
import CratesNet
import CratesStore
import Foundation

/// `crates import`: a shelf scanned into a file (or a Discogs collection export) into the
/// collection at once, then looked up on Discogs at the rate it allows.
///
/// 1. Add the new records in batches, each one write transaction that counts the copies
///    the collection holds of its lines' keys and adds only those missing (a key listed n
///    times is n copies, so a re-run adds nothing twice, and imports running at once never
///    double a copy: `CollectionStore.importEntries(_:copies:)`), stopping between batches
///    when the task is cancelled.
/// 2. `--dry-run` (`dryRun`) plans the same way without writing (`ImportPlan`).
/// 3. Rows known only by a release id: Discogs names their barcode (`Importer+Releases`),
///    and each is added unless the collection holds its copy by then.
/// 4. Drain the lookup queue with the real worker (`LookupDriver`): barcodes are searched,
///    and rows without one (a CSV of catalogue numbers, artists and titles) are searched by
///    their values, which stay on the record as the collector's; `--manual-missing` then
///    enters the rows Discogs has no release for by hand.
/// 5. Report: the summary, what needs a person, and `--report FILE`.
///
/// A stop is the task's cancellation (Ctrl-C, SIGTERM or SIGHUP cancel the command's root
/// task): the batch in hand is committed and no other begun, the lookup in hand goes back
/// to the queue, and the report is made all the same, outside the cancellation
/// (`uncancelled`: the store's reads would throw in a cancelled task), ending `interrupted`.
public struct Importer: Sendable {
    public let store: CollectionStore
    public let progress: any ImportReporting
    /// The local Discogs catalogue: asked first, with no request and no account needed.
    public let catalogue: (any ReleaseCatalogue)?

    public init(store: CollectionStore, progress: any ImportReporting, catalogue: (any ReleaseCatalogue)? = nil) {
        self.store = store
        self.progress = progress
        self.catalogue = catalogue
    }

    public struct Options: Sendable {
        /// Add every line as a new copy.
        public var copies = false
        /// Look the records up now (else they wait in the queue).
        public var lookups = true
        /// `--report FILE`.
        public var reportPath: String?
        /// `--manual-missing`: rows described by their values that Discogs has no release
        /// for become records entered by hand.
        public var manualMissing = false
        /// `--keep-values`: the values of rows described by them stay the collector's when
        /// they find a release (else Discogs' stand then).
        public var keepValues = false
        /// `--no-folder-places` (false): Discogs' folders were not read as places.
        public var folderPlaces = true

        public init(
            copies: Bool = false, lookups: Bool = true, reportPath: String? = nil, manualMissing: Bool = false,
            keepValues: Bool = false, folderPlaces: Bool = true
        ) {
            self.folderPlaces = folderPlaces
            self.copies = copies
            self.lookups = lookups
            self.reportPath = reportPath
            self.manualMissing = manualMissing
            self.keepValues = keepValues
        }
    }

    /// What the import did, for the command to print.
    public struct Outcome: Sendable {
        /// For standard output: the summary, then what needs a person.
        public var lines: [String]
        public var report: ImportReport
        /// Records added by this run.
        public var added: Int
        /// For standard error at the very end (an interrupted import says how to finish).
        public var closingMessage: String?
        /// How it ended.
        public var ending: Ending

        /// `lines`, then, when a record needs a person's choice, the pointer to the
        /// collection UI's view that walks them one by one.
        public var summary: [String] {
            lines + (report.needsAChoice ? ["Settle them one by one in the collection UI: run `crates` and press N (needs a person)."] : [])
        }

        /// What is said when the summary could not be printed (`error`): the records are in
        /// the collection whatever became of it.
        public func notPrinted(name: String, because error: any Error) -> String {
            "\(name): \(counted(added, "record")) added and kept, but the summary was not printed: \(error); "
                + "`crates list` shows the collection"
        }
    }

    /// How an import ended; when several are true of it, the first.
    public enum Ending: Sendable, Hashable {
        /// A stop was asked for: the records added so far are kept.
        case interrupted
        /// Some lines were refused (the rest were imported).
        case linesRefused
        /// Rows known by release id only were not added.
        case releasesNotAdded
        /// The lookups stopped before the end (offline, refused, timed out).
        case lookupsStopped
        /// Some lookups failed: their records wait in the queue.
        case lookupsFailed
        case complete
    }

    /// Imports `parsed` (whose refused lines the command has already reported). The report
    /// file, when asked for, is opened before anything is added: an import that could not
    /// write it adds nothing (and one that names the collection's own files is refused:
    /// `ExportFile.init(path:sparing:)`).
    public func run(
        _ parsed: ImportFile, name: String, options: Options, databasePath: String? = nil,
        discogs: @Sendable () -> Result<DiscogsAccess, DiscogsAccessError>
    ) async throws -> Outcome {
        var reportFile: ExportFile?
        if let path = options.reportPath {
            do {
                reportFile = try ExportFile(path: path, sparing: databasePath ?? store.path)
            } catch {
                throw ImportRunError.report(error)
            }
        }
        do {
            let outcome = try await importing(parsed, name: name, options: options, discogs: discogs)
            if let reportFile {
                try outcome.report.writeTabSeparated { (part: String) throws(ExportError) in try reportFile.write(part) }
                try reportFile.commit()
            }
            return outcome
        } catch let error as ExportError {
            reportFile?.abandon()
            throw ImportRunError.report(error)
        } catch {
            reportFile?.abandon()
            throw error
        }
    }

    private func importing(
        _ parsed: ImportFile, name: String, options: Options,
        discogs: @Sendable () -> Result<DiscogsAccess, DiscogsAccessError>
    ) async throws -> Outcome {
        let entries = parsed.entries
        let progress = self.progress
        // Each batch re-counts its keys' copies inside its own write transaction, so that
        // imports (and adds) running at once never store a copy twice; no plan of
        // the whole file is held (a million lines stay small).
        // Rows described by their values find their release only in the lookups: their ids are
        // kept, to take back a copy the collection had already (below); without lookups there
        // is nothing to take back, and a million ids are not held for nothing.
        var hasDescribed = false
        for index in entries.indices where entries.describedKeyHash(at: index) != nil {
            hasDescribed = true
            break
        }
        let written: CollectionStore.ImportOutcome
        do {
            written = try await store.importEntries(
                entries, copies: options.copies, keepingValues: options.keepValues, keepingIDs: hasDescribed && !options.copies && options.lookups,
                progress: { _, processed in progress.adding(processed, of: entries.count) },
                waitingForLock: { progress.note("\(name): waiting for the collection: another program holds it locked") })
        } catch {
            progress.finish()
            throw ImportRunError.write(error, name: name)
        }
        progress.finish()

        var summary: [String] = []
        // The rows known by release id only that stay unadded wait on disk, beside the rows'
        // extras (`ImportUnresolvedRows`): a Discogs export imported without lookups lists
        // every row.
        var unresolved = ImportUnresolvedRows(spill: entries.spill)
        var lookups: ReleaseLookups?
        func releaseRows() -> [ReleaseRow] {
            written.releaseRows.map { row in ReleaseRow(position: row.position, copiesWanted: options.copies ? nil : row.occurrence) }
        }
        func noneAdded(_ reason: ImportUnresolved.Reason) {
            for row in written.releaseRows { unresolved.append(ImportUnresolved(entry: entries[row.position], reason: reason)) }
        }
        if written.stopped || Task.isCancelled {
            noneAdded(.stopped(.interrupted))
        } else if !options.lookups {
            noneAdded(.lookupsOff)
        } else {
            switch discogs() {
            case .success(let access) where access.signedIn:
                let outcome = await lookUp(releaseRows: releaseRows(), of: entries, client: access.client)
                lookups = outcome
                unresolved = outcome.unresolved
                if outcome.stop == .offline {
                    // Discogs could not be reached: what failed for that waits in the queue,
                    // and one sentence below says so. Only lookups that settled are counted.
                    if outcome.counts.done > outcome.counts.failed {
                        var settled = outcome.counts
                        settled.failed = 0
                        summary.append(Self.lookupSummary(settled, stop: nil, catalogue: catalogue?.edition))
                    }
                } else {
                    summary.append(Self.lookupSummary(outcome.counts, stop: outcome.stop, catalogue: catalogue?.edition))
                }
                if outcome.stop != .offline, outcome.counts.failed > 0, let reason = outcome.failures.first {
                    let more = outcome.failures.count > 1 ? " (and \(counted(outcome.failures.count - 1, "other reason")))" : ""
                    summary.append("Failed, to be retried: \(reason)\(more).")
                }
            case .success(let access) where catalogue != nil:
                // No account: the catalogue answers what it knows, rows known by their
                // release id too; the rest waits.
                let outcome = await lookUp(releaseRows: releaseRows(), of: entries, client: access.client, asksDiscogs: false)
                lookups = outcome
                unresolved = outcome.unresolved
                summary.append(Self.lookupSummary(outcome.counts, stop: outcome.stop, catalogue: catalogue?.edition))
                let store = self.store
                let due = await uncancelled { () async -> Int in (try? await store.dueLookups()) ?? 0 }
                if !unresolved.isEmpty || due > 0 {
                    summary.append(
                        "Not signed in to Discogs: run `crates auth`, then `crates` (or this import again) to look up what the "
                            + "catalogue does not know.")
                }
            case .success:
                noneAdded(.notSignedIn)
                summary.append(
                    "Not signed in to Discogs: run `crates auth`, then `crates` (or this import again) to look the records up.")
            case .failure(let problem):
                // Unreadable credentials or a bad CRATES_DISCOGS_API: the import stands, the
                // lookups wait, and the user learns why.
                noneAdded(.failed(problem.description))
                summary.append("No lookups: \(problem)")
            }
        }

        // The report is made after a stop too, when the task is cancelled: out of its reach.
        let stopped = Task.isCancelled
        return try await uncancelled { [summary, unresolved, lookups] in
            try await report(
                parsed, name: name, options: options, written: written, lookups: lookups, unresolved: unresolved,
                summary: summary, stopped: stopped)
        }
    }

    /// The summary and what needs a person, from what the import did; `stopped`: it was
    /// stopped before its end.
    private func report(
        _ parsed: ImportFile, name: String, options: Options, written: CollectionStore.ImportOutcome, lookups: ReleaseLookups?,
        unresolved: ImportUnresolvedRows, summary: [String], stopped: Bool
    ) async throws -> Outcome {
        let entries = parsed.entries
        var summary = summary
        // A row described by its values that found a release the collection had already is a
        // copy already there, as a barcode already there is: not added (unless --copies), and
        // said so. Only the lookups of this run can tell; the records stay with the person who
        // looks them up later (the UI lists two copies).
        var duplicates = 0
        if lookups != nil, !written.addedIDs.isEmpty {
            let found = try await store.describedDuplicates(among: written.addedIDs)
            if !found.isEmpty { duplicates = try await store.delete(found).count }
        }
        let counts = LineCounts(
            lines: entries.count, added: written.added + (lookups?.added ?? 0) - duplicates,
            present: written.present + (lookups?.present ?? 0) + duplicates, notReached: entries.count - written.processed,
            unresolved: unresolved.count, invalid: parsed.refusalCount - parsed.notARecordCount,
            notARecord: parsed.notARecordCount)
        summary.insert("\(name): \(Self.lineSummary(counts))", at: 0)
        if let folders = Self.foldersLine(parsed, folderPlaces: options.folderPlaces) { summary.insert("\(name): \(folders)", at: 1) }
        // What rows for copies already there filled, and what the copies kept: a row's grades
        // are never dropped without a word.
        let fills = written.fills.prefix(Self.fillLinesShown).map { "\(name):\($0.line): \(ControlCharacters.cleaned($0.text))" }
        summary.insert(contentsOf: fills, at: 1)
        // A place made without its printed label's code: said, so that its label is printed again.
        summary.insert(
            contentsOf: written.renumberedPlaces.map { "\(name): \(ControlCharacters.cleaned($0.text))" }, at: 1 + fills.count)
        if written.fills.count > Self.fillLinesShown {
            summary.insert("\(name): … and \(written.fills.count - Self.fillLinesShown) more rows for copies already there", at: 1 + fills.count)
        }
        if duplicates > 0 {
            summary.insert(
                "\(counted(duplicates, "row")) without a barcode found a release the collection has already: "
                    + "not added again, as a barcode already there is not (--copies adds \(duplicates == 1 ? "it" : "them")).",
                at: 1)
        }
        // Rows described by their catalogue number, artist and title: searched by the
        // lookups above, like barcodes; those Discogs has no release for may be entered by
        // hand now.
        // Their keys as hashes, sorted: 8 bytes a described row, where a set of a million
        // keys would be the rows' text in memory. (Two keys sharing a 62-bit hash would list
        // one record too many as this import's.)
        var describedHashes: [UInt64] = []
        for index in entries.indices {
            if let hash = entries.describedKeyHash(at: index) { describedHashes.append(hash) }
        }
        describedHashes.sort()
        let isImportedKey: @Sendable (String) -> Bool = { [describedHashes] key in
            Self.sortedContains(describedHashes, ImportEntries.keyHash(key))
        }
        if options.manualMissing, !stopped, !describedHashes.isEmpty {
            let entered = try await store.enterNotFoundByHand(isImportedKey: isImportedKey)
            if entered > 0 {
                summary.append("\(counted(entered, "row")) Discogs has no release for entered by hand (--manual-missing).")
            }
        }
        // What needs a person among the file's barcodes: the collection's ambiguous and
        // not-found records, kept when the file lists their barcode (one pass over the
        // entries; no set of a million GTINs).
        var followUp = try await store.importFollowUp(imported: { _ in true }, isImportedKey: isImportedKey)
        // The first line of each described key that needs a person, for the report.
        var wantedKeys: [UInt64: String] = [:]
        for record in followUp.needsPerson { if let key = record.entryKey { wantedKeys[ImportEntries.keyHash(key)] = key } }
        var describedLines: [String: Int] = [:]
        if !wantedKeys.isEmpty {
            for index in entries.indices {
                guard let hash = entries.describedKeyHash(at: index), let key = wantedKeys[hash], describedLines[key] == nil else {
                    continue
                }
                describedLines[key] = entries.line(at: index)
            }
        }
        let candidates = Set(followUp.needsPerson.compactMap { $0.gtin?.gtin14Value })
        var inFile = Set((lookups?.addedGTINs ?? []).map(\.gtin14Value))
        var firstLines: [GTIN: Int] = [:]
        if !candidates.isEmpty {
            for index in entries.indices where candidates.contains(entries.gtinValue(at: index)) {
                inFile.insert(entries.gtinValue(at: index))
                // The first line of each barcode that needs a person, for the report.
                if let gtin = entries.gtin(at: index), firstLines[gtin] == nil { firstLines[gtin] = entries.line(at: index) }
            }
        }
        followUp.needsPerson.removeAll { record in record.gtin.map { !inFile.contains($0.gtin14Value) } ?? false }
        let waiting = followUp.pending + followUp.failed
        if waiting > 0, lookups?.stop == .offline {
            summary.append(
                "Discogs cannot be reached: \(counted(waiting, "lookup")) \(waiting == 1 ? "waits" : "wait") in the queue, "
                    + "and `crates`, or this import again, looks them up.")
        } else if waiting > 0 {
            summary.append(
                "\(counted(waiting, "lookup")) \(waiting == 1 ? "waits" : "wait") in the queue"
                    + (followUp.failed > 0 ? " (\(followUp.failed) failed, to be retried)" : "")
                    + ": `crates`, or this import again, looks them up.")
        }
        let report = ImportReport(
            refusals: parsed.refusals, unresolved: unresolved, followUp: followUp, lines: firstLines,
            describedLines: describedLines)
        var outcome = Outcome(
            lines: summary + report.listing(file: name, reportPath: options.reportPath), report: report,
            added: counts.added, closingMessage: nil, ending: .complete)
        if stopped {
            outcome.closingMessage =
                "Interrupted: \(counted(counts.added, "record")) added and kept; run the same import again to finish."
            outcome.ending = .interrupted
        } else if parsed.refusalCount > 0 {
            outcome.ending = .linesRefused
        } else if !unresolved.isEmpty {
            outcome.ending = .releasesNotAdded
        } else if lookups?.stop != nil {
            outcome.ending = .lookupsStopped
        } else if let lookups, lookups.counts.failed > 0 {
            // Ran to the end, and some record is not final: it failed (after the retries
            // within the run) and waits in the queue, as the summary says.
            outcome.ending = .lookupsFailed
        }
        return outcome
    }

    /// What became of a Discogs export's folders: the places they became (never silently),
    /// or that they were left Discogs' alone (`--no-folder-places`); nil for a file without
    /// a folder column, or whose folders are all "Uncategorized".
    static func foldersLine(_ parsed: ImportFile, folderPlaces: Bool) -> String? {
        guard case .csv(let columns) = parsed.format, columns.folder != nil else { return nil }
        guard columns.placesFromFolders else {
            return folderPlaces ? nil : "Discogs folders not made places (--no-folder-places)"
        }
        var folders = Set<String>()
        for entry in parsed.entries { if let folder = entry.location { folders.insert(folder) } }
        guard !folders.isEmpty else { return nil }
        let sorted = folders.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        let shown = sorted.prefix(5).map(ControlCharacters.cleaned).joined(separator: ", ")
            + (sorted.count > 5 ? " and \(sorted.count - 5) more" : "")
        return "\(counted(sorted.count, "Discogs folder")) became places: \(shown) (--no-folder-places keeps them folders only)"
    }

    /// Whether `sorted` holds `value` (a binary search).
    static func sortedContains(_ sorted: [UInt64], _ value: UInt64) -> Bool {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count && sorted[low] == value
    }

    // MARK: Lookups

    /// The rows known by release id first, then the queue drained by the real worker until
    /// nothing is due, Discogs cannot be reached or refuses the credentials, or the user
    /// interrupts.
    private func lookUp(
        releaseRows: [ReleaseRow], of entries: ImportEntries, client: DiscogsClient, asksDiscogs: Bool = true
    ) async -> ReleaseLookups {
        let due = (try? await store.dueLookups()) ?? 0
        // Discogs' rate waits count down on the bar, so that it never stands still.
        let progress = self.progress
        let countdown = RateWaitCountdown(limiter: client.rateLimiter) { progress.rateWait($0) }
        var outcome = ReleaseLookups(unresolved: ImportUnresolvedRows(spill: entries.spill))
        outcome.total = releaseRows.count + due
        if !releaseRows.isEmpty { await addReleases(releaseRows, of: entries, client: client, asksDiscogs: asksDiscogs, into: &outcome) }
        if outcome.stop == nil, due > 0 {
            let before = outcome.counts
            let total = outcome.total
            let limiter = client.rateLimiter
            // The catalogue first: every record it knows is final within the first seconds,
            // whatever Discogs' rate (or reachability); only the rest wait for Discogs.
            let worker = LookupWorker(
                queue: store, lookup: DiscogsBarcodeLookup(client: client), catalogue: catalogue, asksDiscogs: asksDiscogs)
            let lastStatus = LockedBox<LookupStatus?>(nil)
            let run = await LookupDriver(worker: worker).run(until: .queueDrained) { counts, status async in
                let all = before.adding(counts)
                // A result the collection will not take yet (another program has it locked)
                // is said once, so that a long wait has its reason on screen.
                if case .waitingToWrite = status, lastStatus.withLock({ $0 }) != status {
                    progress.note(status.description)
                }
                lastStatus.withLock { $0 = status }
                // A lookup that failed may be tried again in a long run: never "3/2 done".
                let remaining = total - all.done
                // The catalogue's answers cost nothing: what is left goes to Discogs.
                let local = await worker.statistics.fromCatalogue
                let secondsLeft =
                    remaining > 0 && asksDiscogs
                    ? await limiter.secondsUntilSent(Self.requestsLeft(remaining, counts: counts, answeredLocally: local)) : nil
                progress.lookups(.init(counts: all, total: max(total, all.done), secondsLeft: secondsLeft), final: false)
            }
            outcome.counts = before.adding(run.counts)
            outcome.counts.writeRetries += await worker.statistics.writeRetries
            outcome.counts.unwritten += await worker.statistics.unwritten
            outcome.counts.fromCatalogue += await worker.statistics.fromCatalogue
            outcome.stop = run.stop
            // Read after a stop too (the task is cancelled then).
            let store = self.store
            outcome.failures = await uncancelled { () async -> [String] in
                var failures: [String] = []
                for id in run.failed {
                    guard let reason = try? await store.record(id)?.statusText, !failures.contains(reason) else { continue }
                    failures.append(reason)
                }
                return failures
            }
        }
        await countdown.stop()
        // Stopped because Discogs cannot be reached, the summary says so in one sentence: a
        // last "2/2 done, … failed 2" would contradict it.
        if outcome.stop != .offline {
            progress.lookups(.init(counts: outcome.counts, total: max(outcome.total, outcome.counts.done)), final: true)
        }
        progress.finish()
        return outcome
    }

    /// The requests the lookups left will cost: each what a lookup has cost so far (one until
    /// a few have been made: a barcode found at its first form). The time they take is the
    /// rate limiter's to say (`RateLimiter.secondsUntilSent`): it knows the window, and so
    /// the minute the next request may wait however few lookups are left.
    /// `answeredLocally`: lookups the catalogue answered, which cost none and say nothing of
    /// what a Discogs lookup costs.
    static func requestsLeft(_ remaining: Int, counts: LookupCounts, answeredLocally: Int = 0) -> Int {
        let asked = counts.done - answeredLocally
        let perLookup = asked >= 3 ? Double(counts.requests) / Double(asked) : 1
        return max(1, Int((Double(remaining) * perLookup).rounded(.up)))
    }

    // MARK: Wording

    /// What became of the file's lines, for the summary: every valid line is added,
    /// present, not reached (interrupted) or unresolved (known by release id only).
    struct LineCounts: Hashable, Sendable {
        var lines: Int
        var added: Int
        var present: Int
        var notReached: Int
        var unresolved: Int
        var invalid: Int
        var notARecord: Int
    }

    /// How many rows for copies already there are named one by one.
    static let fillLinesShown = 20

    /// `120 added, 12 already in the collection, 2 not added (known by release id only),
    /// 3 refused (2 invalid, 1 not a record).`
    static func lineSummary(_ counts: LineCounts) -> String {
        var parts = ["\(counts.added) added", "\(counts.present) already in the collection"]
        if counts.notReached > 0 { parts.append("\(counts.notReached) not added (interrupted)") }
        if counts.unresolved > 0 { parts.append("\(counts.unresolved) not added (known by release id only)") }
        let refused = counts.invalid + counts.notARecord
        if refused > 0 {
            var text = "\(refused) refused"
            if counts.notARecord > 0 { text += " (\(counts.invalid) invalid, \(counts.notARecord) not a record)" }
            parts.append(text)
        }
        return parts.joined(separator: ", ") + "."
    }

    /// `Discogs: 60 lookups: 58 matched, 1 ambiguous, 1 not found, 0 failed.`
    static func lookupSummary(_ counts: LookupCounts, stop: LookupDriver.Stop?, catalogue: CatalogueEdition? = nil) -> String {
        // Only lookups whose outcome is written are counted (`LookupWorker`), and the parts
        // of `breakdown` add up to `done`.
        var line = "Discogs: \(counted(counts.done, "lookup")): \(counts.breakdown)."
        if let catalogue {
            line += " \(counts.fromCatalogue) answered by the catalogue of \(catalogue) (no request)."
        }
        if counts.unwritten > 0 {
            line += " \(counts.unwritten == 1 ? "1 result was" : "\(counts.unwritten) results were") found but could not be "
                + "written (the collection stayed locked): \(counts.unwritten == 1 ? "it is" : "they are") looked up again next time."
        }
        switch stop {
        case .unauthorized(let message)?: line += " Stopped: \(DiscogsAccessError.refused(message: message))."
        case .offline?: line += " Stopped: Discogs cannot be reached."
        case .interrupted?, .timedOut?: line += " Interrupted."
        case nil: break
        }
        return line
    }
}

/// Why an import stopped before it could report.
public enum ImportRunError: Error, CustomStringConvertible {
    case report(ExportError)
    /// The collection refused a batch (a full disk, a lock held too long): what the batches
    /// before it added is kept, and the message says so.
    case write(CollectionStore.ImportWriteError, name: String)

    public var description: String {
        switch self {
        case .report(let error): "cannot write the report: \(error)"
        case .write(let error, let name): "\(name): \(error)"
        }
    }
}
