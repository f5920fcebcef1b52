import CratesCore
import CratesDump
import CratesNet
import CratesStore
import Foundation
import Synchronization

/// `crates catalogue build`: a releases dump streamed into a new catalogue, swapped in when
/// complete. The catalogue in place answers throughout, and stays as it was when the build
/// fails or is stopped.
public struct CatalogueBuild: Sendable {
    /// How far the build got.
    public struct Progress: Sendable {
        public var fileBytesRead: Int64
        /// The dump's size; nil when it comes on standard input.
        public var fileSize: Int64?
        public var releases: Int
        public var skipped: Int
        public var seconds: Double
    }

    /// Why a build did not complete.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        case noDate(file: String)
        case badDate(String)
        /// The date (of `--date`, or in the dump's name) is after today.
        case futureDate(String)
        case dump(DumpError)
        case file(CatalogueFileError)
        /// Stopped by a signal (Ctrl-C): nothing was changed.
        case stopped

        public var description: String {
            switch self {
            case .noDate(let file):
                "The dump's date is not in its name (\(file)); Discogs names it discogs_YYYYMMDD_releases.xml.gz: pass --date YYYYMMDD."
            case .badDate(let text):
                "--date takes the dump's date as YYYYMMDD (20260601), a day from 2000 on, not \(text)."
            case .futureDate(let text):
                "The dump's date \(text) is after today: Discogs dates a dump the day it makes it; pass --date YYYYMMDD."
            case .dump(let error): "\(error) The catalogue was not changed."
            case .file(let error): "\(error)"
            case .stopped: "Stopped: the catalogue was not changed."
            }
        }
    }

    public var dumpPath: String
    public var cataloguePath: String
    public var edition: CatalogueEdition
    /// The collection's database: never replaced by a build, whatever `cataloguePath` says.
    public var collectionPath: String?
    /// Swaps the build in even when it kept no release, or fewer than half the releases of
    /// the catalogue it replaces.
    public var force: Bool

    /// A build of `dumpPath` into `cataloguePath`; the dump's date from `date` (YYYYMMDD), else
    /// from the file's name. A dump that is not there is said first, before its date.
    ///
    /// The date is a real day from 2000 on and not after today (`DiscogsDumpDate`); it need not
    /// be the 1st of a month, as Discogs' monthly dumps are, since older dumps were dated on
    /// other days.
    public init(
        dumpPath: String, cataloguePath: String, date: String?, sparing collectionPath: String?, force: Bool = false,
        now: Date = Date()
    ) throws(Failure) {
        self.dumpPath = dumpPath
        self.cataloguePath = cataloguePath
        self.collectionPath = collectionPath
        self.force = force
        do {
            try DumpReader.checkExists(dumpPath)
        } catch {
            throw .dump(error)
        }
        let digits: String
        if let date {
            digits = date
            guard DiscogsDumpDate(digits: date) != nil else { throw .badDate(date) }
        } else if let date = Self.dumpDate(fileName: dumpPath) {
            digits = date
        } else {
            throw .noDate(file: dumpPath)
        }
        if DiscogsDumpDate(digits: digits)?.isAfterToday(now: now) == true { throw .futureDate(digits) }
        edition = CatalogueEdition(dumpDate: digits)
    }

    /// The date in a dump's name: `discogs_20260601_releases.xml.gz` → 20260601.
    public static func dumpDate(fileName: String) -> String? {
        let name = fileName.split(separator: "/").last.map(String.init) ?? fileName
        guard name.hasPrefix("discogs_") else { return nil }
        let date = String(name.dropFirst("discogs_".count).prefix(8))
        guard name.dropFirst("discogs_".count + 8).hasPrefix("_releases"), DiscogsDumpDate(digits: date) != nil else { return nil }
        return date
    }

    /// The free space a build needs beside the catalogue: the new file (at most 160 bytes a
    /// release; a release is about 550 bytes of gzip, 3,400 of XML) and as much again for
    /// the keys' sorted runs and SQLite's temporary files. With no size to go by (standard
    /// input), the whole of Discogs.
    public static func neededBytes(dumpSize: Int64?, compressed: Bool) -> Int64 {
        let releases = dumpSize.map { $0 / (compressed ? 550 : 3_400) } ?? 20_000_000
        return max(64_000_000, releases * 160 * 2)
    }

    /// Runs the build on a thread of its own (the dump reader's threads inflate and parse
    /// beside it); `progress` is called after each batch. Cancelling the task stops it
    /// (`stopped`): the reader's threads are told at once (`DumpReader.cancel`), the build
    /// between batches, and the catalogue stays as it was.
    public func run(progress: @escaping @Sendable (Progress) -> Void) async throws(Failure) -> CatalogueSummary {
        let reading = LockedBox<DumpReader?>(nil)
        return try await BlockingWork.run("crates.catalogue.build", onCancel: { reading.withLock { $0 }?.cancel() }) {
            stop throws(Failure) in
            try build(
                stop: stop,
                opened: { reader in
                    reading.withLock { $0 = reader }
                    // Cancelled before the reader was known: told now.
                    if stop.isSet { reader.cancel() }
                }, progress: progress)
        }
    }

    private func build(
        stop stopped: StopFlag, opened: (DumpReader) -> Void, progress: (Progress) -> Void
    ) throws(Failure) -> CatalogueSummary {
        let start = ContinuousClock.now
        let compressed = !dumpPath.hasSuffix(".xml")
        // The catalogue's place is checked (and the building file taken) before the dump is
        // opened: a build refused touches nothing.
        let builder: DiscogsCatalogueBuilder
        do {
            builder = try DiscogsCatalogueBuilder(
                path: cataloguePath, edition: edition,
                neededBytes: Self.neededBytes(dumpSize: DumpReader.fileSize(of: dumpPath), compressed: compressed),
                sparing: collectionPath)
        } catch {
            throw .file(error)
        }
        let reader: DumpReader
        do {
            reader = try DumpReader(path: dumpPath)
        } catch {
            builder.abandon()
            throw .dump(error)
        }
        opened(reader)
        var skipped: [String] = []
        var skippedCount = 0
        var unlisted = 0
        var releases = 0
        func seconds() -> Double {
            let elapsed = ContinuousClock.now - start
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
        do {
            try reader.read { batch in
                if stopped.isSet { throw Failure.stopped }
                try builder.add(batch.releases, keys: batch.keys)
                releases += batch.releases.count
                skippedCount += batch.skipped.count
                unlisted += batch.unlisted
                if skipped.count < 100 { skipped += batch.skipped.prefix(100 - skipped.count).map(\.description) }
                progress(Progress(
                    fileBytesRead: batch.fileBytesRead, fileSize: reader.fileSize, releases: releases, skipped: skippedCount,
                    seconds: seconds()))
            }
            if stopped.isSet { throw Failure.stopped }
            return try builder.finish(
                seconds: seconds(), skipped: skipped, skippedCount: skippedCount, unlisted: unlisted, force: force)
        } catch let error as Failure {
            builder.abandon()
            throw error
        } catch let error as DumpError {
            builder.abandon()
            throw .dump(error)
        } catch let error as CatalogueFileError {
            if let detail = builder.failureDetail { Diagnostics.note("SQLite: \(detail)") }
            builder.abandon()
            throw .file(error)
        } catch {
            builder.abandon()
            throw .file(.cannotWrite(path: cataloguePath, reason: "\(error)"))
        }
    }
}

