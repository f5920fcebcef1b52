import CratesCore
import CratesNet
import CratesStore
import Foundation

/// What a catalogue update says while it runs, for the person waiting; the executable
/// decides how it is printed.
public protocol CatalogueUpdateReporter: Sendable {
    /// The download's progress.
    var download: any DownloadReporting { get }
    /// A line of the fetch: which month, a try again, a start over.
    func say(_ line: String)
    /// The dump is here and verified: the build begins.
    func fetched(_ fetched: CatalogueFetch.Fetched)
    /// After each batch of the build.
    func building(_ progress: CatalogueBuild.Progress)
    /// The build ended, complete or not.
    func buildEnded()
}

/// `crates catalogue fetch`: the catalogue brought up to date from Discogs' data site. The
/// newest dump (or the one asked for) is fetched and verified (`CatalogueFetch`), the
/// catalogue is built from it (`CatalogueBuild`), then the older dumps of the cache are
/// removed (`DumpCache`): once a newer dump is built, an older one (10 GB) is of no use.
public struct CatalogueUpdate: Sendable {
    /// A catalogue built from a verified dump.
    public struct Outcome: Sendable {
        public var fetched: CatalogueFetch.Fetched
        public var summary: CatalogueSummary
        /// The older dumps removed from the cache, and their bytes.
        public var removed: [(name: String, bytes: Int64)]
    }

    /// Why the update did not complete: the fetch's failure or the build's.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        case fetch(CatalogueFetchError)
        case build(CatalogueBuild.Failure)

        /// Stopped by a signal: what was downloaded is kept, the catalogue is as it was.
        public var isStopped: Bool {
            switch self {
            case .fetch(.stopped), .build(.stopped): true
            default: false
            }
        }

        public var description: String {
            switch self {
            case .fetch(let error): error.description
            case .build(let error): error.description
            }
        }
    }

    public let cataloguePath: String
    /// The collection's database: never replaced by the build.
    public let collectionPath: String?
    public let settings: CatalogueFetch.Settings
    private let transport: any HTTPStreamingTransport

    /// An update of the catalogue at `cataloguePath` from the site and the cache directory
    /// `environment` names (`CatalogueFetch.Settings.configured`), over one connection: the
    /// site refuses a host that asks too much.
    public init(
        cataloguePath: String, sparing collectionPath: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(Failure) {
        self.cataloguePath = cataloguePath
        self.collectionPath = collectionPath
        do throws(CatalogueFetchError) {
            settings = try CatalogueFetch.Settings.configured(environment: environment)
        } catch {
            throw .fetch(error)
        }
        do throws(TransportError) {
            transport = try CurlTransport(
                configuration: .init(userAgent: DiscogsUserAgent.make(version: CratesVersion.current), connections: 1))
        } catch {
            throw .fetch(.network(error, kept: 0, path: nil))
        }
    }

    /// Fetches the dump of `date` (else the newest complete one), builds the catalogue from
    /// it, then removes the older dumps. Cancelling the task stops the download, keeping the
    /// part that came, or the build, leaving the catalogue as it was (`isStopped`).
    public func run(date: DiscogsDumpDate?, reporter: some CatalogueUpdateReporter) async throws(Failure) -> Outcome {
        let fetch = CatalogueFetch(settings: settings, transport: transport, progress: reporter.download) { reporter.say($0) }
        let fetched: CatalogueFetch.Fetched
        do throws(CatalogueFetchError) {
            fetched = try await fetch.run(date: date)
        } catch {
            if case .network(let transportError, _, _) = error, let detail = transportError.detail { Diagnostics.note(detail) }
            throw .fetch(error)
        }
        reporter.fetched(fetched)
        if Task.isCancelled { throw .build(.stopped) }
        let summary: CatalogueSummary
        do throws(CatalogueBuild.Failure) {
            let build = try CatalogueBuild(
                dumpPath: fetched.path, cataloguePath: cataloguePath, date: fetched.date.digits, sparing: collectionPath)
            defer { reporter.buildEnded() }
            summary = try await build.run { reporter.building($0) }
        } catch {
            throw .build(error)
        }
        let removed = DumpCache.removeOlder(than: fetched.date, in: settings.cacheDirectory)
        return Outcome(fetched: fetched, summary: summary, removed: removed)
    }
}
