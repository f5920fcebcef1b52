import CratesCore
import CratesNet
import CratesStore
import Foundation

/// `crates import FILE`, the whole use case: opens the input once, peeks at its start,
/// restores crates' JSON export or parses a list, refuses (`--strict`), plans (`--dry-run`)
/// or writes and looks up (`Importer`), and says how it ended. The command parses its
/// arguments, makes this one call, prints the outcome and maps it to an exit status.
///
/// A stop is the task's cancellation: the reading ends at once (a pipe that sends nothing
/// included), a restore restores nothing, and an import keeps what it wrote and reports it
/// (`Importer`).
public struct ImportRun: Sendable {
    /// What the command line asked for.
    public struct Request: Sendable {
        /// The file, or "-" for standard input.
        public var path: String
        public var strict = false
        public var force = false
        public var copies = false
        public var dryRun = false
        /// Look the records up now (`--no-lookup`: not).
        public var lookups = true
        public var manualMissing = false
        public var keepValues = false
        /// Discogs folders become places (`--no-folder-places`: not).
        public var folderPlaces = true
        /// `--report FILE`.
        public var reportPath: String?

        public init(path: String) {
            self.path = path
        }
    }

    /// How the run ended, for the command to print.
    public enum Outcome: Sendable {
        /// crates' JSON export restored (with `dryRun`, read and checked, nothing written).
        case restored(CollectionRestore.Outcome, name: String, dryRun: Bool)
        /// `--dry-run` of a list: what each line would do; `linesRefused`: some were.
        case planned(ImportPlan, summary: String, linesRefused: Bool)
        /// `--strict`, and lines were refused: nothing was imported (`message` says so).
        case refused(message: String)
        /// The list imported (`Importer.Outcome.ending` says how it ended, `interrupted`
        /// after a stop).
        case imported(Importer.Outcome, name: String)
        /// Stopped before anything was written (while the input was read); `message`, when
        /// there is something to say (a restore: nothing was restored).
        case stopped(message: String?)
    }

    /// Why the run ended without an outcome.
    public enum Failure: Error, CustomStringConvertible {
        case input(ImportInput.Failure)
        case restore(CollectionRestore.Failure)
        /// Options that do not apply to a restore of crates' JSON export.
        case notForRestore(name: String, options: [String])
        case plan(StoreError)
        case run(ImportRunError)

        public var description: String {
            switch self {
            case .input(let failure): failure.description
            case .restore(let failure): failure.description
            case .notForRestore(let name, let options):
                "\(name) is crates' JSON export, which is restored as it is: \(options.joined(separator: ", ")) "
                    + "\(options.count == 1 ? "does" : "do") not apply"
            case .plan(let error): "\(error)"
            case .run(let error): error.description
            }
        }
    }

    public let request: Request
    public let progress: any ImportReporting
    /// The collection's file.
    public let databasePath: String
    /// Opens the collection (the caller's way: it says what an upgrade or a lock waits
    /// for); whatever it throws ends the run as it is.
    public let openStore: @Sendable () throws -> CollectionStore
    /// The local Discogs catalogue, opened when lookups are asked for.
    public let openCatalogue: @Sendable () -> (any ReleaseCatalogue)?
    public let discogs: @Sendable () -> Result<DiscogsAccess, DiscogsAccessError>

    public init(
        _ request: Request, progress: any ImportReporting, databasePath: String,
        openStore: @escaping @Sendable () throws -> CollectionStore,
        openCatalogue: @escaping @Sendable () -> (any ReleaseCatalogue)? = { nil },
        discogs: @escaping @Sendable () -> Result<DiscogsAccess, DiscogsAccessError>
    ) {
        self.request = request
        self.progress = progress
        self.databasePath = databasePath
        self.openStore = openStore
        self.openCatalogue = openCatalogue
        self.discogs = discogs
    }

    /// How messages call the input.
    public var name: String { request.path == "-" ? "stdin" : request.path }

    public func run() async throws -> Outcome {
        // The input is opened once and its start read once, to tell crates' JSON export from
        // a list: a pipe or a FIFO read twice would lose what the first reading took.
        let source: ImportInput.Source
        do throws(ImportInput.Failure) {
            source = try ImportInput.open(path: request.path)
        } catch {
            throw Failure.input(error)
        }
        defer { source.close() }
        let start: [UInt8]?
        do throws(ImportInput.Failure) {
            start = try await ImportInput.peek(source, count: CollectionRestore.signatureLength)
        } catch {
            throw Failure.input(error)
        }
        guard let start else { return .stopped(message: nil) }
        if CollectionRestore.isExport(start: start) { return try await restore(source, prefix: start) }
        let parsed: ImportFile
        do throws(ImportInput.Failure) {
            switch try await ImportInput.read(
                source, prefix: start, strict: request.strict, force: request.force, folderPlaces: request.folderPlaces) {
            case .complete(let read): parsed = read
            case .stopped: return .stopped(message: nil)
            }
        } catch {
            throw Failure.input(error)
        }
        // Every line is checked before anything is written; the refused ones are said
        // first, in file order, then the rows that may not be what was meant.
        for refusal in parsed.refusals { progress.note(refusal.message(file: name)) }
        if parsed.refusalCount > parsed.refusals.count {
            progress.note("\(name): … and \(parsed.refusalCount - parsed.refusals.count) more refused lines")
        }
        for warning in parsed.warnings { progress.note(warning.message(file: name)) }
        if Task.isCancelled { return .stopped(message: nil) }

        if request.dryRun {
            let plan: ImportPlan
            do throws(StoreError) {
                plan = try Importer.dryRun(parsed, databasePath: databasePath, copies: request.copies)
            } catch {
                throw Failure.plan(error)
            }
            return .planned(plan, summary: plan.dryRunSummary(name: name, strict: request.strict), linesRefused: parsed.refusalCount > 0)
        }
        if request.strict, parsed.refusalCount > 0 {
            return .refused(message: "\(name): \(counted(parsed.refusalCount, "line")) refused: nothing imported (--strict)")
        }
        let importer = Importer(store: try openStore(), progress: progress, catalogue: request.lookups ? openCatalogue() : nil)
        let options = Importer.Options(
            copies: request.copies, lookups: request.lookups, reportPath: request.reportPath, manualMissing: request.manualMissing,
            keepValues: request.keepValues, folderPlaces: request.folderPlaces)
        do {
            return .imported(
                try await importer.run(parsed, name: name, options: options, databasePath: databasePath, discogs: discogs), name: name)
        } catch let error as ImportRunError {
            throw Failure.run(error)
        }
    }

    /// crates' own `export --json` file: the collection restored exactly, into an empty one.
    private func restore(_ source: ImportInput.Source, prefix: [UInt8]) async throws -> Outcome {
        let unused = [
            (request.copies, "--copies"), (request.manualMissing, "--manual-missing"), (request.keepValues, "--keep-values"),
            (!request.folderPlaces, "--no-folder-places"), (request.reportPath != nil, "--report"),
        ]
        .filter(\.0).map(\.1)
        if !unused.isEmpty { throw Failure.notForRestore(name: request.path, options: unused) }
        // A dry run creates no database file: a collection not there yet is an empty one.
        let store =
            request.dryRun && !FileManager.default.fileExists(atPath: databasePath) ? try CollectionStore.inMemory() : try openStore()
        do throws(CollectionRestore.Failure) {
            let outcome = try await CollectionRestore.run(source: source, prefix: prefix, store: store, dryRun: request.dryRun)
            return .restored(outcome, name: source.name, dryRun: request.dryRun)
        } catch .interrupted {
            return .stopped(message: CollectionRestore.Failure.interrupted.description)
        } catch {
            throw Failure.restore(error)
        }
    }
}
