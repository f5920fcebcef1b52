import CratesCore
import CratesNet
import CratesStore
import Foundation

/// `crates add CODE...`: each code added by the rules of `RecordAdder`, one line per record
/// added (`id  gtin  state  detail`), a message per code not added, and with `wait` the
/// lookups of the new records before the lines are printed. `crates add --manual`: one
/// record entered by hand (`addByHand`).
public struct AddCodes: Sendable {
    public let store: CollectionStore
    public let access: DiscogsAccess?
    /// `--copy`, `--force` (`--manual` takes only `--copy`).
    public let allowing: AddAllowance
    /// `--wait`, and its `--timeout` in seconds. Cancelling the task that runs the add ends
    /// the wait early (SIGINT, SIGTERM, SIGHUP): the lookup in hand goes back to the queue.
    public let wait: Double?
    /// The local Discogs catalogue: a `--wait` asks it first (no request, no account).
    public let catalogue: (any ReleaseCatalogue)?

    public init(
        store: CollectionStore, access: DiscogsAccess?, allowing: AddAllowance, wait: Double?,
        catalogue: (any ReleaseCatalogue)? = nil
    ) {
        self.store = store
        self.access = access
        self.allowing = allowing
        self.wait = wait
        self.catalogue = catalogue
    }

    /// Adds the codes in order; `out` gets the record lines, `say` a message per code not
    /// added (and why a wait did not finish). Returns the exit status: 1 when a code was
    /// refused, else 4 when Discogs could not give a release (`unavailable`: a fault that
    /// lasted, to run again later), else 3 when a lookup did not finish, else 2 when a
    /// duplicate was skipped, else 74 (EX_IOERR) when `out` failed. A line that cannot be printed (standard output
    /// on a full disk) stops no add: the codes after it are added all the same, and `say`
    /// tells which records were added and kept.
    public func run(
        _ codes: [String], out write: @Sendable (String) throws -> Void, say: @Sendable (String) -> Void
    ) async throws -> Int32 {
        var printed: [Int64] = []
        let outputFailure = LockedBox<(any Error)?>(nil)
        let out: @Sendable (String) -> Void = { line in
            guard outputFailure.withLock({ $0 }) == nil else { return }
            do { try write(line) } catch { outputFailure.withLock { $0 = error } }
        }
        let status = try await adding(codes, out: out, say: say, added: &printed)
        guard let failure = outputFailure.withLock({ $0 }) else { return status }
        say(Self.keptWithoutOutput(printed, because: failure))
        return status == 0 ? Self.outputFailed : status
    }

    /// The exit status of an add whose records are kept but whose lines could not be
    /// printed: EX_IOERR, as sysexits(3) names an output error.
    public static let outputFailed: Int32 = 74

    /// "2 records added and kept (ids 4, 5), but …": what a person whose output was lost
    /// needs to know.
    static func keptWithoutOutput(_ ids: [Int64], because failure: any Error) -> String {
        let which = ids.isEmpty ? "" : " (\(ids.count == 1 ? "id" : "ids") \(ids.map(String.init).joined(separator: ", ")))"
        return "\(counted(ids.count, "record")) added and kept\(which), but not printed: \(failure); `crates list` shows them"
    }

    private func adding(
        _ codes: [String], out: @Sendable (String) -> Void, say: @Sendable (String) -> Void, added: inout [Int64]
    ) async throws -> Int32 {
        let adder = RecordAdder(store: store, discogs: access)
        var refused = false
        var unavailable = false
        var skipped = false
        for code in codes {
            let shown = GTIN.displayForm(of: code)
            let entry: CodeEntry
            do {
                entry = try CodeEntry.parseConfigured(code)
            } catch {
                refused = true
                say("\(shown): \(error)")
                continue
            }
            let method: AddMethod = if case .release = entry { .releaseID } else { .typed }
            let allowing = self.allowing
            let outcome: RecordAdder.Outcome
            do {
                outcome = try await adder.add(entry, method: method, allowing: allowing)
            } catch {
                if Task.isCancelled { break }
                throw error
            }
            // Stopped (the task cancelled: SIGINT, SIGTERM, SIGHUP): a release being asked
            // again is not waited for, and the codes after it are not added.
            if Task.isCancelled { break }
            switch outcome {
            case .added(let record, _):
                added.append(record.id)
                if wait == nil { out(try await Self.line(for: record.id, store: store)) }
            case .held(let question):
                switch question.kind {
                case .anotherCopy(let copies):
                    skipped = true
                    say("\(shown): \(Self.skipped(question.title ?? question.subject, copies: copies))")
                case .notARecord(let code):
                    refused = true
                    say("\(shown): \(code.refusal())")
                case .moveHere(let move):
                    // Not asked here (no place is current): as any copy already there.
                    skipped = true
                    say("\(shown): \(Self.skipped(move.title, copies: move.copies))")
                }
            case .refused(let reason):
                refused = true
                say("\(shown): \(reason)")
            case .unavailable(let reason):
                unavailable = true
                say("\(shown): \(reason)")
            }
        }
        var unfinished = false
        if let timeout = wait, !added.isEmpty {
            if let problem = try await Self.waitForLookups(
                added, store: store, access: access, timeout: timeout, catalogue: catalogue)
            {
                unfinished = true
                if let message = problem.message { say(message) }
            }
            // Said after a stop too, when the task is cancelled (`uncancelled`): a record
            // added is never left unsaid.
            let store = self.store
            let lines = try await uncancelled { [added] () async throws -> [String] in
                var lines: [String] = []
                for id in added { lines.append(try await Self.line(for: id, store: store)) }
                return lines
            }
            for line in lines { out(line) }
        }
        return refused ? 1 : unavailable ? Self.discogsFailed : unfinished ? 3 : skipped ? 2 : 0
    }

    /// The exit status of an add Discogs could not serve (a release asked through its
    /// retries, to no answer): as `crates lookup` and `crates search` say "unreachable".
    public static let discogsFailed: Int32 = 4

    /// `--manual`: one record entered by hand from `values` as typed (checked by
    /// `RecordFields.handEntered`); `out` gets its line, `say` why it was not added. Returns
    /// the exit status: 1 when a value is refused, 2 when a record described the same way
    /// is there already (without `--copy`), 74 when its line could not be printed (it is
    /// kept).
    public func addByHand(
        _ values: [RecordField: String], out: @Sendable (String) throws -> Void, say: @Sendable (String) -> Void
    ) async throws -> Int32 {
        let fields: RecordFields
        do {
            fields = try RecordFields.handEntered(values)
        } catch {
            say(error.description)
            return 1
        }
        let adder = RecordAdder(store: store, discogs: access)
        switch try await adder.addByHand(fields, anotherCopy: allowing.contains(.anotherCopy)) {
        case .added(let record):
            do {
                try out(try await Self.line(for: record.id, store: store))
            } catch let error as StoreError {
                throw error
            } catch {
                say(Self.keptWithoutOutput([record.id], because: error))
                return Self.outputFailed
            }
            return 0
        case .duplicate(let copies):
            say(Self.skipped(fields.description, copies: copies))
            return 2
        }
    }

    /// Why a copy was not added: "… is already in the collection (1 copy): skipped; …",
    /// naming the record the collection has ("Artist — Title"; its barcode before its
    /// lookup), so that a person sees which record the scan was.
    static func skipped(_ subject: String, copies: Int) -> String {
        "\(subject) is already in the collection (\(counted(copies, "copy", plural: "copies"))): skipped; add another copy with --copy"
    }

    /// `id  gtin  state  detail` for the record as stored now.
    static func line(for id: Int64, store: CollectionStore) async throws -> String {
        guard let details = try await store.details(id) else {
            return TabSeparatedText.line([String(id), "", "deleted", "deleted meanwhile"]) + "\n"
        }
        let record = details.record
        var detail = detail(details)
        if let onDiscogs = DiscogsOwnership.text(copies: details.discogsCopies) {
            detail += detail.isEmpty ? onDiscogs : " (\(onDiscogs))"
        }
        return TabSeparatedText.line([String(record.id), record.gtin?.canonical ?? "", record.lookupState.rawValue, detail]) + "\n"
    }

    /// What Discogs found: Artist — Title (as shown: the collector's values win), how many
    /// pressings share the barcode, why the lookup failed; empty while pending (but for a
    /// record without a barcode, which shows what it is).
    static func detail(_ details: RecordDetails) -> String {
        let record = details.record
        switch record.lookupState {
        case .matched: return details.displayTitle
        case .handEntered: return "\(details.displayTitle) (entered by hand)"
        case .pending, .lookingUp: return record.gtin == nil ? details.displayTitle : record.catalogueEdition?.waitingForDiscogs ?? ""
        case .ambiguous: return (record.statusText ?? "") + ": choose one in the collection UI"
        default: return record.statusText ?? ""
        }
    }

    /// `--wait`: looks the records `ids` up (after any lookups already waiting in the queue),
    /// until they are settled or `timeout` passes. Nil when every lookup finished well;
    /// otherwise why not (a failed lookup says nothing more: its line shows the error).
    static func waitForLookups(
        _ ids: [Int64], store: CollectionStore, access: DiscogsAccess?, timeout: Double,
        catalogue: (any ReleaseCatalogue)? = nil
    ) async throws -> Unfinished? {
        // A record added by release is matched already: only those waiting for a lookup
        // are waited for. The store is read outside a stop's cancellation (`uncancelled`),
        // here and below, so that a stop is said as one, never as a read that failed.
        let waiting = try await uncancelled { () async throws -> Set<Int64> in
            var waiting: Set<Int64> = []
            for id in ids {
                switch try await store.record(id)?.lookupState {
                case .pending, .lookingUp, .failed: waiting.insert(id)
                default: break
                }
            }
            return waiting
        }
        if waiting.isEmpty { return nil }
        if Task.isCancelled { return .interrupted }
        // Without an account the catalogue still answers what it knows; the rest waits.
        guard let access, access.signedIn || catalogue != nil else { return .notSignedIn }
        let worker = LookupWorker(
            queue: store, lookup: DiscogsBarcodeLookup(client: access.client), catalogue: catalogue, asksDiscogs: access.signedIn)
        let run = await LookupDriver(worker: worker).run(
            until: .settled(waiting), timeout: .milliseconds(Int(timeout * 1000)))
        switch run.stop {
        case .unauthorized(let message): return .refused(message)
        case .offline: return .offline
        case .interrupted: return .interrupted
        case .timedOut: return .timedOut(seconds: Int(timeout))
        case nil: break
        }
        let states = try await uncancelled { () async throws -> [LookupState?] in
            var states: [LookupState?] = []
            for id in waiting { states.append(try await store.record(id)?.lookupState) }
            return states
        }
        var elsewhere = false
        for state in states {
            switch state {
            case .failed: return .failed
            case .pending, .lookingUp: elsewhere = true
            default: break
            }
        }
        // The catalogue answered what it knew: the rest waits for an account.
        if elsewhere, !access.signedIn { return .notSignedIn }
        return elsewhere ? .elsewhere : nil
    }

    /// Why `crates add --wait` did not see every lookup finish well (exit status 3).
    public enum Unfinished: Equatable, Sendable {
        case notSignedIn
        case refused(String)
        case timedOut(seconds: Int)
        case offline
        case interrupted
        case failed
        /// The drive ended with a record still waiting: another crates process holds its
        /// lookup.
        case elsewhere

        /// Nil for `failed`.
        public var message: String? {
            switch self {
            case .notSignedIn:
                "not signed in to Discogs: the records wait in the queue; run `crates auth` to look them up"
            case .refused(let message):
                "\(DiscogsAccessError.refused(message: message)); the records wait in the queue"
            case .timedOut(let seconds):
                "gave up waiting after \(seconds) s: the remaining lookups stay in the queue"
            case .offline:
                "Discogs cannot be reached: the remaining lookups stay in the queue, for the collection UI or `crates import` to finish later"
            case .interrupted:
                "stopped: the remaining lookups stay in the queue"
            case .elsewhere:
                "another crates process is looking the records up: they are not finished yet"
            case .failed:
                nil
            }
        }
    }
}
