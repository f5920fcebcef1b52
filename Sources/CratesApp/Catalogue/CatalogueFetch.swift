import CratesCore
import CratesNet
import Foundation

/// `crates catalogue fetch`: finds the newest complete releases dump on Discogs' data site,
/// downloads it into the cache directory and verifies its SHA-256 against the dump's
/// checksum file. What it returns is a verified file, ready to build a catalogue from.
///
/// The site allows about 15 requests in 6 minutes, then refuses the whole host for about an
/// hour: requests go one at a time and as few as can be (a checksum file already here is
/// not asked for again, a verified file not downloaded again), a 429 stops everything and
/// its time is kept, so that no run asks again before it.
public struct CatalogueFetch: Sendable {
    public struct Settings: Sendable {
        public var site: DiscogsDataSite
        /// Where dumps are kept (`$XDG_CACHE_HOME/crates`).
        public var cacheDirectory: String
        /// Room a download needs when the answer gives no size: the releases file of mid-2026
        /// is 10.4 GB.
        public var estimatedBytes: Int64 = 11_000_000_000
        /// Tries of the download, the first included, when the connection breaks.
        public var attempts = 4
        /// The pause before each try again.
        public var backoff = Backoff(first: .seconds(1), maximum: .seconds(30))
        public var stallTimeout: Double = 60

        public init(site: DiscogsDataSite, cacheDirectory: String) {
            self.site = site
            self.cacheDirectory = cacheDirectory
        }

        /// `$CRATES_DISCOGS_DATA`, and `$XDG_CACHE_HOME/crates` (else `~/.cache/crates`).
        public static func configured(
            environment: [String: String] = ProcessInfo.processInfo.environment
        ) throws(CatalogueFetchError) -> Settings {
            let directory: String
            if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
                directory = cache + "/crates"
            } else if let home = environment["HOME"], home.hasPrefix("/") {
                directory = home + "/.cache/crates"
            } else {
                throw .file(path: "~/.cache/crates", reason: "HOME is not set; set XDG_CACHE_HOME")
            }
            return Settings(site: .configured(environment: environment), cacheDirectory: directory)
        }
    }

    /// A verified dump, ready to build from.
    public struct Fetched: Sendable {
        public var path: String
        public var date: DiscogsDumpDate
        /// Bytes downloaded by this run (0: it was here already).
        public var downloaded: Int64
    }

    public let settings: Settings
    public let transport: any HTTPStreamingTransport
    public let progress: any DownloadReporting
    /// A line for the person waiting (which month, a try again, a start over).
    public let say: @Sendable (String) -> Void

    public init(
        settings: Settings, transport: any HTTPStreamingTransport, progress: any DownloadReporting,
        say: @escaping @Sendable (String) -> Void
    ) {
        self.settings = settings
        self.transport = transport
        self.progress = progress
        self.say = say
    }

    /// The dump of `date`, else the newest complete one (this month's, else last month's).
    /// Cancelling the task stops the download, keeping what came (`.stopped`).
    public func run(date: DiscogsDumpDate?, now: Date = Date()) async throws(CatalogueFetchError) -> Fetched {
        try prepareDirectory()
        if let until = waitingUntil(now: now) { throw .waitRequested(until: until) }
        let (date, checksums) = try await findDump(date: date, now: now)
        let name = date.releasesFileName
        guard let expected = checksums.sha256(of: name) else { throw .notListed(date: date, name: name) }
        let path = settings.cacheDirectory + "/" + name
        if FileManager.default.fileExists(atPath: path) {
            if VerifiedDigest.read(for: path) == expected.lowercased() {
                // Verified when it came, and unchanged since (size and time): not read again.
                say("\(name) is here already, SHA-256 verified")
                return Fetched(path: path, date: date, downloaded: 0)
            }
            say("\(name) is here already: checking it")
            if try verify(path, name: name, expected: expected, removeOnMismatch: false) {
                VerifiedDigest.write(expected.lowercased(), for: path)
                return Fetched(path: path, date: date, downloaded: 0)
            }
            say("\(name) does not match Discogs' checksum: downloading it again")
            VerifiedDigest.remove(for: path)
            unlink(path)
        }
        let partial = path + ".part"
        let (downloaded, digest) = try await download(settings.site.url(of: name, date: date), to: partial, name: name)
        guard try verify(partial, name: name, expected: expected, removeOnMismatch: true, digest: digest) else {
            throw .checksumMismatch(name: name)
        }
        guard rename(partial, path) == 0 else { throw .file(path: path, reason: String(cString: strerror(errno))) }
        VerifiedDigest.write(expected.lowercased(), for: path)
        return Fetched(path: path, date: date, downloaded: downloaded)
    }

    // MARK: - Which dump

    /// The dump's date and its checksums: `date`'s, or this month's when its checksum file is
    /// there (written last, it means the month is complete), else last month's.
    private func findDump(date: DiscogsDumpDate?, now: Date) async throws(CatalogueFetchError) -> (DiscogsDumpDate, DiscogsDumpChecksums) {
        let candidates = date.map { [$0] } ?? {
            let this = DiscogsDumpDate.firstOfMonth(containing: now)
            return [this, this.monthBefore]
        }()
        for candidate in candidates {
            if let checksums = try await checksums(of: candidate) { return (candidate, checksums) }
            if date == nil, candidate == candidates.first { say("no complete dump of \(candidate) yet: trying the month before") }
        }
        throw .noDump(dates: candidates)
    }

    /// The checksum file of `date`: kept from an earlier run, else asked for (and kept).
    /// Nil when the site has none.
    private func checksums(of date: DiscogsDumpDate) async throws(CatalogueFetchError) -> DiscogsDumpChecksums? {
        let kept = settings.cacheDirectory + "/" + date.checksumFileName
        if let text = try? String(contentsOfFile: kept, encoding: .utf8) {
            let checksums = DiscogsDumpChecksums(text: text)
            if checksums.sha256(of: date.releasesFileName) != nil { return checksums }
        }
        let receiver = MemoryBodyReceiver(limit: 1 << 20)
        let request = HTTPRequest(url: settings.site.url(of: date.checksumFileName, date: date), headers: userAgentHeader)
        let result: HTTPStreamResult
        do {
            result = try await transport.stream(request, options: streamOptions, into: receiver)
        } catch {
            throw error == .cancelled ? .stopped(kept: 0, path: nil) : .network(error, kept: 0, path: nil)
        }
        switch result.status {
        case 200 where !result.refused:
            let text = String(decoding: receiver.body, as: UTF8.self)
            let checksums = DiscogsDumpChecksums(text: text)
            // A page that lists no releases file is not this month's complete dump.
            guard checksums.sha256(of: date.releasesFileName) != nil else { return nil }
            try? text.write(toFile: kept, atomically: true, encoding: .utf8)
            return checksums
        case 403, 404, 410:
            return nil
        case 429:
            throw waitRequested(DiscogsDataSite.retryTime(result.headers["Retry-After"], now: Date()))
        default:
            throw .unexpectedStatus(result.status, what: date.checksumFileName)
        }
    }

    // MARK: - The download

    /// Downloads `url` into `partial`, resuming where the host allows it, trying again after
    /// a broken connection; the bytes downloaded, and the file's SHA-256 as it was written
    /// (nil when the last answer did not write it whole).
    private func download(_ url: String, to partial: String, name: String) async throws(CatalogueFetchError) -> (Int64, String?) {
        // Read too: a resumed download hashes the part it already has.
        let fd = open(partial, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .file(path: partial, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        progress.start(name)
        var downloaded: Int64 = 0
        var failures = 0
        var fromStart = false
        while true {
            let kept = fromStart ? 0 : fileSize(fd)
            if fromStart {
                _ = ftruncate(fd, 0)
                fromStart = false
            }
            let receiver = DumpFileReceiver(
                fd: fd, fileBytes: kept, directory: settings.cacheDirectory, estimatedBytes: settings.estimatedBytes,
                progress: progress, say: say)
            var headers = userAgentHeader
            if kept > 0 { headers.append(("Range", "bytes=\(kept)-")) }
            let outcome: Result<HTTPStreamResult, TransportError>
            do {
                outcome = .success(try await transport.stream(HTTPRequest(url: url, headers: headers), options: streamOptions, into: receiver))
            } catch {
                outcome = .failure(error)
            }
            let state = receiver.current
            downloaded += max(0, state.fileBytes - (state.startedOver || state.status == 200 ? 0 : kept))
            switch outcome {
            case .success(let result) where !result.refused && (result.status == 200 || result.status == 206):
                progress.finish()
                _ = fsync(fd)
                return (downloaded, receiver.finishedDigest())
            case .success:
                progress.finish()
                // Nothing came: no empty part is left behind to resume.
                if fileSize(fd) == 0 { unlink(partial) }
                switch state.stop {
                case .waitRequested(let until):
                    throw waitRequested(until)
                case .noSpace(let needed, let available):
                    throw .noSpace(needed: needed, available: available, directory: settings.cacheDirectory)
                case .writeFailed(let code) where code == ENOSPC:
                    throw .diskFilled(kept: fileSize(fd), path: partial)
                case .writeFailed(let code):
                    throw .file(path: partial, reason: String(cString: strerror(code)))
                case .rangeNotSatisfiable where kept > 0:
                    // Nothing after the part: it is the whole file (a run stopped while
                    // checking it), which the checksum now judges.
                    return (downloaded, nil)
                case .wrongRange where kept > 0:
                    // The host resumes elsewhere than asked: once from the start.
                    fromStart = true
                    continue
                case .rangeNotSatisfiable, .wrongRange:
                    throw .unexpectedStatus(state.status, what: name)
                case .status(let status):
                    throw .unexpectedStatus(status, what: name)
                case nil:
                    throw .unexpectedStatus(state.status, what: name)
                }
            case .failure(.cancelled):
                progress.finish()
                _ = fsync(fd)
                throw .stopped(kept: fileSize(fd), path: partial)
            case .failure(let error):
                progress.finish()
                failures += 1
                guard error.isTransient, failures < settings.attempts else {
                    _ = fsync(fd)
                    throw .network(error, kept: fileSize(fd), path: partial)
                }
                let pause = settings.backoff.delay(failures - 1)
                say("the download broke off (\(error.description)) after \(ProgressText.bytes(fileSize(fd))): "
                    + "trying again in \(pause.components.seconds) s (try \(failures + 1) of \(settings.attempts))")
                do {
                    try await Task.sleep(for: pause)
                } catch {
                    throw .stopped(kept: fileSize(fd), path: partial)
                }
            }
        }
    }

    // MARK: - Checks

    /// Whether `path`'s SHA-256 is `expected`; a file that does not match is removed when
    /// asked (it must never be built from). `digest`: the file's, computed as it was
    /// written; else the file is read.
    private func verify(
        _ path: String, name: String, expected: String, removeOnMismatch: Bool, digest known: String? = nil
    ) throws(CatalogueFetchError) -> Bool {
        if let known {
            if known == expected.lowercased() { return true }
            if removeOnMismatch { unlink(path) }
            return false
        }
        say("checking the SHA-256 of \(name)")
        // Ctrl-C stops the check too (tens of seconds for the real file): the file is kept.
        guard let digest = SHA256Digest.file(atPath: path, stop: { Task.isCancelled }) else {
            if Task.isCancelled { throw .stopped(kept: fileSize(path), path: path) }
            throw .file(path: path, reason: String(cString: strerror(errno)))
        }
        if digest == expected.lowercased() { return true }
        if removeOnMismatch { unlink(path) }
        return false
    }

    private func prepareDirectory() throws(CatalogueFetchError) {
        do {
            try FileManager.default.createDirectory(atPath: settings.cacheDirectory, withIntermediateDirectories: true)
        } catch {
            throw .file(path: settings.cacheDirectory, reason: "cannot be created: " + SystemError.describe(error))
        }
    }

    /// The file that keeps a 429's time, so that no run asks before it.
    private var waitFile: String { settings.cacheDirectory + "/data-site-retry-after" }

    private func waitingUntil(now: Date) -> Date? {
        guard let text = try? String(contentsOfFile: waitFile, encoding: .utf8),
              let seconds = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        let until = Date(timeIntervalSince1970: seconds)
        if until > now { return until }
        unlink(waitFile)
        return nil
    }

    /// The time is kept in whole seconds, rounded up (never earlier than the site asked), and
    /// said as kept: this run and the next name the same minute.
    private func waitRequested(_ until: Date) -> CatalogueFetchError {
        let seconds = until.timeIntervalSince1970.rounded(.up)
        try? String(Int(seconds)).write(toFile: waitFile, atomically: true, encoding: .utf8)
        return .waitRequested(until: Date(timeIntervalSince1970: seconds))
    }

    private var streamOptions: HTTPStreamOptions { HTTPStreamOptions(stallTimeout: settings.stallTimeout) }

    private var userAgentHeader: [(name: String, value: String)] {
        [("User-Agent", DiscogsUserAgent.make(version: CratesVersion.current))]
    }

    private func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    private func fileSize(_ fd: Int32) -> Int64 {
        var info = stat()
        return fstat(fd, &info) == 0 ? Int64(info.st_size) : 0
    }
}

/// Why `crates catalogue fetch` stopped, in crates' words.
public enum CatalogueFetchError: Error, Sendable, CustomStringConvertible {
    /// A 429: the site asks for no request before `until` (kept for the next runs).
    case waitRequested(until: Date)
    case noDump(dates: [DiscogsDumpDate])
    case notListed(date: DiscogsDumpDate, name: String)
    case unexpectedStatus(Int, what: String)
    case noSpace(needed: Int64, available: Int64, directory: String)
    case diskFilled(kept: Int64, path: String)
    case network(TransportError, kept: Int64, path: String?)
    case checksumMismatch(name: String)
    case file(path: String, reason: String)
    /// Ctrl-C: what came is kept for the next run.
    case stopped(kept: Int64, path: String?)

    public var description: String {
        switch self {
        case .waitRequested(let until):
            "Discogs' data site asks for no more requests until \(Self.clock(until)): try again then"
        case .noDump(let dates):
            dates.count == 1
                ? "Discogs' data site has no complete dump of \(dates[0]) (no checksum file names its releases file)"
                : "Discogs' data site has no complete dump of \(dates.map(\.description).joined(separator: " or ")) yet (no checksum file names its releases file)"
        case .notListed(let date, let name):
            "the checksum file of the dump of \(date) does not list \(name)"
        case .unexpectedStatus(let status, let what):
            "Discogs' data site answered HTTP \(status) for \(what)"
        case .noSpace(let needed, let available, let directory):
            "not enough disk space in \(directory): the download needs \(ProgressText.bytes(needed)), "
                + "\(ProgressText.bytes(available)) is free; free some space (or set XDG_CACHE_HOME to a larger disk) and run again"
        case .diskFilled(let kept, let path):
            "the disk filled up during the download: \(ProgressText.bytes(kept)) kept in \(path); free some space and run again to continue"
        case .network(let error, _, _) where error == .cancelled:
            "Stopped."
        case .network(let error, _, _) where Self.isSetting(error):
            // A base address crates refuses: the setting, not the network.
            "Discogs' data site cannot be asked: \(error.description) (check \(DiscogsDataSite.environmentVariable))"
        case .network(let error, let kept, let path?):
            "the download failed: \(error.description)"
                + (kept > 0 ? "; \(ProgressText.bytes(kept)) kept in \(path), run again to continue" : "; run again later")
        case .network(let error, _, nil):
            "Discogs' data site could not be reached: \(error.description); run again later"
        case .checksumMismatch(let name):
            "\(name) does not match the SHA-256 of Discogs' checksum file: the file was removed and is not used; run again to download it again"
        case .file(let path, let reason):
            "\(path): \(reason)"
        case .stopped(let kept, let path):
            "Stopped." + (path.map { kept > 0 ? " \(ProgressText.bytes(kept)) kept in \($0): run again to continue." : "" } ?? "")
        }
    }

    /// A URL crates refuses to ask (not http(s), or plain http beyond loopback).
    private static func isSetting(_ error: TransportError) -> Bool {
        switch error {
        case .invalidURL, .insecureURL: true
        default: false
        }
    }

    /// `15:42`, or `2026-11-27 15:42` when not today, in local time.
    static func clock(_ date: Date, now: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = Calendar.current.isDate(date, inSameDayAs: now) ? "HH:mm" : "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
