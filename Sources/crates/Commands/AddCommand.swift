import ArgumentParser
import CratesCore
import CratesNet
import CratesStore
import Foundation

/// `crates add CODE...`: adds records as the collection UI does, from a script.
struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add records by barcode or Discogs release, as scanning them in the collection UI does.",
        discussion: """
            Each CODE is a barcode in any form `crates barcode` reads (the record is added \
            at once and waits for its Discogs lookup), or a Discogs release, r249504 or a \
            release page URL (crates fetches the release, takes the barcode it lists, and \
            adds the record already matched).

            Output: one line per added record, tab-separated:
              id  gtin  state  detail
            state is the record's lookup state (pending until looked up; matched for a \
            release); detail says what Discogs found (Artist — Title, how many pressings \
            share the barcode, why the lookup failed), empty while pending.

            Codes that are not added are reported on standard error, one line each:
              crates add: CODE: reason
            A code is refused when it is not a valid barcode (the reason says what is \
            wrong), when it is not a record's barcode (an ISBN, an ISSN, a coupon, a shop's \
            price label), or when Discogs cannot give the release. A barcode already in the \
            collection is skipped, unless --copy adds it as another copy.

            With --wait, crates looks the new records up on Discogs before it exits (as \
            the collection UI would, at the rate Discogs allows, after any lookups already \
            waiting in the queue) and prints each line with its outcome once all are done, \
            or when --timeout passes. Needs `crates auth` first. Records whose lookup did \
            not finish stay in the queue: the collection UI or `crates import` looks them up \
            later.

            Exit status:
              0  every code was added (and, with --wait, every lookup finished)
              1  at least one code was refused
              2  nothing was refused, but some barcode was already in the collection (skipped)
              3  with --wait: some lookup did not finish (timed out, failed and will be
                 retried, not signed in, or Discogs refused the credentials)
            When several apply, the lowest number but 0 wins in the order 1, 3, 2.

            Examples:
              crates add 5099750442227 '0 77774 62002 4'
              crates add --wait 727361626525
              crates add --copy 5099750442227
              crates add r249504 https://www.discogs.com/release/1-The-Persuader-Stockholm
            """)

    @OptionGroup var store: StoreOptions

    @Flag(help: "Add a barcode already in the collection as another copy (otherwise it is skipped).")
    var copy = false

    @Flag(help: "Look the new records up on Discogs before exiting, and print their outcome.")
    var wait = false

    @Option(help: ArgumentHelp("With --wait: give up waiting after this many seconds (up to 86400).", valueName: "seconds"))
    var timeout: Double = 120

    @Argument(help: "Barcodes (as printed or scanned; quote codes with spaces) or Discogs releases (r249504, a release URL).")
    var codes: [String]

    func validate() throws {
        guard timeout > 0, timeout <= 86_400 else {
            throw ValidationError("--timeout must be a number of seconds above 0 and at most 86400 (a day)")
        }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let store = try self.store.open()
        let needsDiscogs = wait || codes.contains { ReleaseReference.parse($0) != nil }
        let discogs = needsDiscogs ? try DiscogsAccess.make(environment: environment) : nil

        var refused = false
        var skipped = false
        var added: [Int64] = []
        for code in codes {
            switch try add(code, store: store, discogs: discogs) {
            case .added(let record):
                added.append(record.id)
                if !wait { try StandardStreams.out(try Self.line(for: record.id, store: store)) }
            case .refused(let reason):
                refused = true
                StandardStreams.err("crates add: \(GTIN.displayForm(of: code)): \(reason)\n")
            case .skipped(let reason):
                skipped = true
                StandardStreams.err("crates add: \(GTIN.displayForm(of: code)): \(reason)\n")
            }
        }

        var unfinished = false
        if wait, !added.isEmpty {
            unfinished = try waitForLookups(added, store: store, discogs: discogs, environment: environment)
            var text = ""
            for id in added { text += try Self.line(for: id, store: store) }
            try StandardStreams.out(text)
        }
        if refused { throw ExitCode(1) }
        if unfinished { throw ExitCode(3) }
        if skipped { throw ExitCode(2) }
    }

    // MARK: Adding

    enum Outcome {
        case added(CatalogueRecord)
        case refused(String)
        case skipped(String)
    }

    private func add(_ code: String, store: CatalogueStore, discogs: DiscogsAccess?) throws -> Outcome {
        if let id = ReleaseReference.parse(code) {
            return try addRelease(id, store: store, discogs: discogs)
        }
        let parsed: ParsedBarcode
        do {
            parsed = try GTIN.parse(code)
        } catch {
            return .refused("\(error)")
        }
        if let reason = parsed.gtin.notARecordReason {
            return .refused("\(reason); crates catalogues records only")
        }
        return try add(NewRecord(gtin: parsed.gtin, addMethod: .typed), store: store)
    }

    /// As the collection UI's `r249504`: the release names the barcode.
    private func addRelease(_ id: Int, store: CatalogueStore, discogs: DiscogsAccess?) throws -> Outcome {
        guard let client = discogs?.client else { return .refused("adding by release needs Discogs, which is not set up") }
        let release: Release
        do {
            release = try blocking { try await client.release(id: id) }
        } catch DiscogsError.notFound {
            return .refused("Discogs has no release \(id)")
        } catch {
            return .refused("\(error)")
        }
        guard let gtin = ReleaseBarcodes.gtin(in: release) else {
            return .refused("Discogs release \(id) (\(release.artist) — \(release.title)) lists no barcode: add the record by the barcode printed on it")
        }
        return try add(NewRecord(gtin: gtin, addMethod: .releaseID, release: release), store: store)
    }

    /// Adds `new` unless its barcode is there already and `--copy` was not given. Checked
    /// against the store, not this run's list: another process may have added it.
    private func add(_ new: NewRecord, store: CatalogueStore) throws -> Outcome {
        let copy = self.copy
        return try blocking {
            let copies = try await store.copies(of: new.gtin)
            if copies > 0, !copy {
                let count = copies == 1 ? "1 copy" : "\(copies) copies"
                return .skipped("\(new.gtin.canonical) is already in the collection (\(count)): skipped; add another copy with --copy")
            }
            return .added(try await store.add(new))
        }
    }

    // MARK: Waiting for lookups

    /// States in which a record's lookup is over, for `--wait` (a failed one will be tried
    /// again, but not by this run).
    static let settled: Set<LookupState> = [.matched, .ambiguous, .notFound, .skipped, .failed]

    /// Runs the lookup worker until the records `ids` are settled, the timeout passes or the
    /// worker stops. Returns whether any lookup did not finish well (exit status 3).
    private func waitForLookups(
        _ ids: [Int64], store: CatalogueStore, discogs: DiscogsAccess?, environment: [String: String]
    ) throws -> Bool {
        guard let discogs, discogs.signedIn else {
            StandardStreams.err("crates add: not signed in to Discogs: the records wait in the queue; run `crates auth` to look them up\n")
            return true
        }
        let timeout = self.timeout
        if isatty(STDERR_FILENO) == 1 {
            StandardStreams.err("Looking up \(ids.count) record\(ids.count == 1 ? "" : "s") on Discogs (up to \(Int(timeout)) s)…\n")
        }
        let worker = LookupWorker(queue: store, lookup: DiscogsBarcodeLookup(client: discogs.client))
        let (settled, status) = try blocking { () async throws -> (Bool, LookupWorker.Status) in
            let running = Task { await worker.run() }
            let clock = ContinuousClock()
            let end = clock.now.advanced(by: .milliseconds(Int(timeout * 1000)))
            var settled = false
            var status = LookupWorker.Status.idle
            while true {
                settled = try await Self.allSettled(ids, store: store)
                status = await worker.status
                if settled || clock.now >= end { break }
                if case .unauthorized = status { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            // The lookup in hand finishes; if it takes too long, the process ends anyway and
            // its claim's lease hands the record back to the queue.
            await worker.stop()
            let give = clock.now.advanced(by: .seconds(5))
            while clock.now < give, !(await Self.isFinished(worker)) { try await Task.sleep(for: .milliseconds(50)) }
            running.cancel()
            return (settled, status)
        }
        if case .unauthorized(let message) = status {
            StandardStreams.err("crates add: Discogs refused the credentials (\(message)): run `crates auth`; the records wait in the queue\n")
            return true
        }
        if !settled {
            StandardStreams.err("crates add: gave up waiting after \(Int(timeout)) s: the remaining lookups stay in the queue\n")
            return true
        }
        let failed = try blocking { () async throws -> Bool in
            for id in ids where try await store.record(id)?.lookupState == .failed { return true }
            return false
        }
        return failed
    }

    private static func allSettled(_ ids: [Int64], store: CatalogueStore) async throws -> Bool {
        for id in ids {
            guard let record = try await store.record(id) else { continue }  // deleted meanwhile
            if !settled.contains(record.lookupState) { return false }
        }
        return true
    }

    private static func isFinished(_ worker: LookupWorker) async -> Bool {
        if case .stopped = await worker.status { return true }
        if case .unauthorized = await worker.status { return true }
        return false
    }

    // MARK: Output

    /// `id  gtin  state  detail` for the record as stored now.
    static func line(for id: Int64, store: CatalogueStore) throws -> String {
        guard let details = try blocking({ try await store.details(id) }) else {
            return TabSeparatedText.line([String(id), "", "deleted", "deleted meanwhile"]) + "\n"
        }
        let record = details.record
        return TabSeparatedText.line([
            String(record.id), record.gtin.canonical, record.lookupState.rawValue, detail(details),
        ]) + "\n"
    }

    static func detail(_ details: RecordDetails) -> String {
        let record = details.record
        switch record.lookupState {
        case .matched:
            guard let release = details.release else { return "" }
            return release.artist.isEmpty ? release.title : "\(release.artist) — \(release.title)"
        case .ambiguous:
            return "\(record.candidates.count) pressings share this barcode: choose one in the collection UI"
        case .notFound:
            return "Discogs knows no release with this barcode"
        case .failed:
            return record.lookupError ?? "the lookup failed"
        case .skipped:
            return record.skipReason ?? ""
        case .pending, .lookingUp:
            return ""
        }
    }
}
