import CratesCore
import CratesNet
import CratesStore
import Foundation

/// `crates import`: a shelf scanned into a file (or a Discogs collection export) into the
/// collection at once, then looked up on Discogs at the rate it allows.
///
/// 1. Plan: each valid line against the copies the collection holds (`ImportPlan`: a key
///    listed n times is n copies, so a re-run adds nothing twice).
/// 2. Add the new records in batches, each one transaction, stopping between batches when
///    asked to.
/// 3. Rows known only by a release id: Discogs names their barcode (`Importer+Releases`).
/// 4. Drain the lookup queue with the real worker (`LookupDriver`): barcodes are searched,
///    and rows without one (a CSV of catalogue numbers, artists and titles) are searched by
///    their values, which stay on the record as the collector's; `--manual-missing` then
///    enters the rows Discogs has no release for by hand.
/// 5. Report: the summary, what needs a person, and `--report FILE`.
public struct Importer: Sendable {
    public let store: CatalogueStore
    public let progress: ImportProgress
    public let stopRequest: StopRequest

    public init(store: CatalogueStore, progress: ImportProgress, stopRequest: StopRequest) {
        self.store = store
        self.progress = progress
        self.stopRequest = stopRequest
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

        public init(copies: Bool = false, lookups: Bool = true, reportPath: String? = nil, manualMissing: Bool = false) {
            self.copies = copies
            self.lookups = lookups
            self.reportPath = reportPath
            self.manualMissing = manualMissing
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
        /// 0, 2 (lines refused), 3 (release rows not added), 128 + signal (interrupted).
        public var exitStatus: Int32
    }

    /// Imports `parsed` (whose refused lines the command has already reported). The report
    /// file, when asked for, is opened before anything is added: an import that could not
    /// write it adds nothing.
    public func run(
        _ parsed: ImportFile, name: String, options: Options,
        discogs: @Sendable () -> Result<DiscogsAccess, DiscogsAccessProblem>
    ) async throws -> Outcome {
        var reportFile: ExportFile?
        if let path = options.reportPath {
            do {
                reportFile = try ExportFile(path: path)
            } catch {
                throw ImportRunError.report(error)
            }
        }
        do {
            let outcome = try await importing(parsed, name: name, options: options, discogs: discogs)
            if let reportFile {
                try reportFile.write(outcome.report.tabSeparated)
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
        discogs: @Sendable () -> Result<DiscogsAccess, DiscogsAccessProblem>
    ) async throws -> Outcome {
        let keys = Set(parsed.entries.map(\.key))
        let plan = ImportPlan(file: parsed, present: try await store.copies(of: keys), copies: options.copies)
        let newEntries = plan.newEntries
        let stopRequest = self.stopRequest
        let progress = self.progress
        let ids = try await store.importEntries(
            newEntries, shouldContinue: { !stopRequest.isRequested },
            progress: { done in progress.adding(done, of: newEntries.count) })
        progress.finish()

        var summary: [String] = []
        var unresolved: [ImportUnresolved] = []
        var lookups: ReleaseLookups?
        let releaseRows = plan.needsDiscogs
        if stopRequest.isRequested {
            unresolved = releaseRows.map { ImportUnresolved(entry: $0, reason: .stopped(.interrupted)) }
        } else if !options.lookups {
            unresolved = releaseRows.map { ImportUnresolved(entry: $0, reason: .lookupsOff) }
        } else {
            switch discogs() {
            case .success(let access) where access.signedIn:
                let outcome = await lookUp(releaseRows: releaseRows, client: access.client)
                lookups = outcome
                unresolved = outcome.unresolved
                summary.append(Self.lookupSummary(outcome.counts, stop: outcome.stop))
            case .success:
                unresolved = releaseRows.map { ImportUnresolved(entry: $0, reason: .notSignedIn) }
                summary.append(
                    "Not signed in to Discogs: run `crates auth`, then `crates` (or this import again) to look the records up.")
            case .failure(let problem):
                // Unreadable credentials or a bad CRATES_DISCOGS_API: the import stands, the
                // lookups wait, and the user learns why.
                unresolved = releaseRows.map { ImportUnresolved(entry: $0, reason: .failed(problem.description)) }
                summary.append("No lookups: \(problem)")
            }
        }

        let added = ids.count + (lookups?.added ?? 0)
        summary.insert("\(name): \(Self.lineSummary(plan, added: added, unresolved: unresolved.count))", at: 0)
        var gtins = Set(parsed.entries.compactMap(\.gtin))
        gtins.formUnion(lookups?.addedGTINs ?? [])
        // Rows described by their catalogue number, artist and title: searched by the
        // lookups above, like barcodes; those Discogs has no release for may be entered by
        // hand now.
        var describedLines: [String: Int] = [:]
        for entry in parsed.entries {
            if let key = entry.described?.entryKey, describedLines[key] == nil { describedLines[key] = entry.line }
        }
        if options.manualMissing, !stopRequest.isRequested {
            let entered = try await store.enterNotFoundByHand(entryKeys: Set(describedLines.keys))
            if entered > 0 {
                summary.append("\(counted(entered, "row")) Discogs has no release for entered by hand (--manual-missing).")
            }
        }
        let followUp = try await store.importFollowUp(gtins: gtins, entryKeys: Set(describedLines.keys))
        let waiting = followUp.pending + followUp.failed
        if waiting > 0 {
            summary.append(
                "\(counted(waiting, "lookup")) \(waiting == 1 ? "waits" : "wait") in the queue"
                    + (followUp.failed > 0 ? " (\(followUp.failed) failed, to be retried)" : "")
                    + ": `crates`, or this import again, looks them up.")
        }
        var firstLines: [GTIN: Int] = [:]
        for entry in parsed.entries { if let gtin = entry.gtin, firstLines[gtin] == nil { firstLines[gtin] = entry.line } }
        let report = ImportReport(
            refusals: parsed.refusals, unresolved: unresolved, followUp: followUp, lines: firstLines,
            describedLines: describedLines)
        var outcome = Outcome(
            lines: summary + report.listing(file: name, reportPath: options.reportPath), report: report, added: added,
            closingMessage: nil, exitStatus: 0)
        if stopRequest.isRequested {
            outcome.closingMessage = "Interrupted: \(counted(added, "record")) added and kept; run the same import again to finish."
            outcome.exitStatus = stopRequest.exitStatus
        } else if !parsed.refusals.isEmpty {
            outcome.exitStatus = 2
        } else if !unresolved.isEmpty {
            outcome.exitStatus = 3
        }
        return outcome
    }

    // MARK: Lookups

    /// The rows known by release id first, then the queue drained by the real worker until
    /// nothing is due, Discogs cannot be reached or refuses the credentials, or the user
    /// interrupts.
    private func lookUp(releaseRows: [ImportEntry], client: DiscogsClient) async -> ReleaseLookups {
        let due = (try? await store.dueLookups()) ?? 0
        var outcome = ReleaseLookups()
        outcome.total = releaseRows.count + due
        if !releaseRows.isEmpty { await addReleases(releaseRows, client: client, into: &outcome) }
        if outcome.stop == nil, due > 0 {
            let before = outcome.counts
            let total = outcome.total
            let configuration = await client.rateLimiter.configuration
            let progress = self.progress
            let worker = LookupWorker(queue: store, lookup: DiscogsBarcodeLookup(client: client))
            let run = await LookupDriver(worker: worker).run(until: .queueDrained, stopRequest: stopRequest) { counts, _ in
                let all = before.adding(counts)
                progress.lookups(.init(
                    counts: all, total: total,
                    secondsLeft: Self.secondsLeft(remaining: total - all.done, counts: counts, configuration: configuration)))
            }
            outcome.counts = before.adding(run.counts)
            outcome.stop = run.stop
        }
        progress.lookups(.init(counts: outcome.counts, total: outcome.total), final: true)
        progress.finish()
        return outcome
    }

    /// The time the lookups left take at the rate limit: each costs the requests a lookup
    /// has cost so far (one until a few have been made: a barcode found at its first form).
    static func secondsLeft(remaining: Int, counts: LookupCounts, configuration: RateLimiter.Configuration) -> Double? {
        guard remaining > 0 else { return nil }
        let perLookup = counts.done >= 3 ? Double(counts.requests) / Double(counts.done) : 1
        return Double(remaining) * perLookup * configuration.window / Double(max(1, configuration.limit))
    }

    // MARK: Wording

    /// `120 added, 12 already in the collection, 2 not added (known by release id only),
    /// 3 refused (2 invalid, 1 not a record).`
    static func lineSummary(_ plan: ImportPlan, added: Int, unresolved: Int) -> String {
        var parts = ["\(added) added", "\(plan.presentCount) already in the collection"]
        let interrupted = plan.newCount + plan.needsDiscogsCount - added - unresolved
        if interrupted > 0 { parts.append("\(interrupted) not added (interrupted)") }
        if unresolved > 0 { parts.append("\(unresolved) not added (known by release id only)") }
        if !plan.refusals.isEmpty {
            var refused = "\(plan.refusals.count) refused"
            if plan.notARecordCount > 0 { refused += " (\(plan.invalidCount) invalid, \(plan.notARecordCount) not a record)" }
            parts.append(refused)
        }
        return parts.joined(separator: ", ") + "."
    }

    /// `Discogs: 60 lookups: 58 matched, 1 ambiguous, 1 not found, 0 failed.`
    static func lookupSummary(_ counts: LookupCounts, stop: LookupDriver.Stop?) -> String {
        var line = "Discogs: \(counted(counts.done, "lookup")): \(counts.breakdown)."
        switch stop {
        case .unauthorized(let message)?: line += " Stopped: \(DiscogsAccessProblem.refused(message: message))."
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

    public var description: String {
        switch self {
        case .report(let error): "cannot write the report: \(error)"
        }
    }
}
