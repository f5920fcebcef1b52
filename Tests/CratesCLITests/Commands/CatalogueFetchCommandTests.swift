import CratesCore
import CratesTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `crates catalogue fetch` against a loopback stand-in for Discogs' data site
/// (Tests/DiscogsServer/data_site.py), through the real binary and real libcurl: a broken
/// connection, a host that ignores Range (200) and one that honours it (206), a 429 with
/// Retry-After, a checksum that does not match, a disk too small, a month not complete yet,
/// Ctrl-C mid-download.
///
/// Before this command existed every one of these failed: `crates catalogue` was an unknown
/// command (exit 64).
@Suite("crates catalogue fetch (process)", .processTimeLimit)
struct CatalogueFetchCommandTests {
    /// A sandbox whose cache directory is its own, and a data site of its own.
    struct Fetching {
        let sandbox: CommandSandbox
        let site: DataSiteTestServer
        var cacheHome: String

        init() async throws {
            sandbox = try CommandSandbox()
            site = try await DataSiteTestServer.start()
            cacheHome = sandbox.directory.appendingPathComponent("cache").path
        }

        var cache: String { cacheHome + "/crates" }

        var environment: [String: String] {
            var environment = sandbox.environment
            environment["XDG_CACHE_HOME"] = cacheHome
            environment["CRATES_DISCOGS_DATA"] = site.base
            return environment
        }

        func fetch(_ arguments: [String] = []) async throws -> ProcessResult {
            try await ProcessRunner.crates(["catalogue", "fetch"] + arguments, environment: environment, deadline: .seconds(300))
        }

        /// The file the site serves, as the command must leave it: the same bytes, by SHA-256.
        func expectTheSiteFile(at path: String, _ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let stats = try await site.stats()
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
            #expect(size == stats.size, "\(result)", sourceLocation: sourceLocation)
            let digest = try await Self.sha256(path)
            #expect(digest == stats.sha256, "\(result)", sourceLocation: sourceLocation)
        }

        /// By coreutils' sha256sum: apart from the digest code under test.
        static func sha256(_ path: String) async throws -> String? {
            let result = try await ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), arguments: ["sha256sum", path])
            return result.succeeded ? result.stdout.split(separator: " ").first.map(String.init) : nil
        }

        /// The releases downloads the site got, in order.
        func downloads() async throws -> [DataSiteTestServer.Request] {
            try await site.stats().log.filter { $0.name?.hasSuffix("_releases.xml.gz") == true }
        }
    }

    /// The date a run picks (the newest whose checksum file the site has), from its first line.
    static func fetchedPath(_ result: ProcessResult) -> String? {
        result.stdoutLines.first.flatMap { line in line.range(of: ": the releases dump of").map { String(line[..<$0.lowerBound]) } }
    }

    @Test("a connection dropped mid-body, on a host that honours Range: tried again, resumed with a 206, the file whole")
    func droppedThenResumed() async throws {
        let f = try await Fetching()
        try await f.site.honourRange()
        try await f.site.drop(after: 50_000)
        let result = try await f.fetch()
        #expect(result.status == 0, "\(result)")
        let path = try #require(Self.fetchedPath(result), "\(result)")
        try await f.expectTheSiteFile(at: path, result)
        let downloads = try await f.downloads()
        #expect(downloads.count == 2, "\(downloads)")
        #expect(downloads.first?.sent == 50_000 && downloads.first?.range == nil, "\(downloads)")
        #expect(downloads.last?.range == "bytes=50000-" && downloads.last?.status == 206, "\(downloads)")
        #expect(result.stderr.contains("the download broke off"), "\(result)")
        #expect(result.stderr.contains("resuming after 50 kB"), "\(result)")
        // Hashed as it came (the part kept read once, then the rest as it arrived): the
        // checksum holds without reading the file again.
        #expect(!result.stderr.contains("checking the SHA-256"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: path + ".part"))
        // Then the catalogue is built from the verified file.
        #expect(result.stdoutLines.contains { $0.hasPrefix("Built the Discogs catalogue of 2026-") }, "\(result)")
        let status = try await f.sandbox.crates(["catalogue", "status", "--json"])
        #expect(status.status == 0 && status.stdout.contains("\"releases\""), "\(status)")
    }

    @Test("a host that ignores Range answers 200 with the whole file: started over, never appended, the file byte-identical")
    func rangeIgnored() async throws {
        let f = try await Fetching()
        try await f.site.drop(after: 50_000)
        let result = try await f.fetch()
        #expect(result.status == 0, "\(result)")
        let path = try #require(Self.fetchedPath(result), "\(result)")
        try await f.expectTheSiteFile(at: path, result)
        let downloads = try await f.downloads()
        let size = try await f.site.stats().size
        #expect(downloads.count == 2, "\(downloads)")
        #expect(downloads.last?.range == "bytes=50000-" && downloads.last?.status == 200 && downloads.last?.sent == size, "\(downloads)")
        #expect(result.stderr.contains("starting over"), "\(result)")
        // Not a terminal: plain lines, the last with the whole file.
        #expect(result.stderrLines.contains { $0.hasPrefix("download: \((path as NSString).lastPathComponent): 167 kB of 167 kB") },
                "\(result)")
        #expect(!result.stderr.contains("\u{1B}["), "\(result)")
    }

    @Test("on a terminal: a bar redrawn in place with the bytes, of the size, and the rate (tmux)")
    func progressBar() async throws {
        let f = try await Fetching()
        try await f.site.hold(after: 60_000)
        let binary = try ProcessRunner.cratesBinary().path
        let tmux = try await TmuxSession(
            command: "\(TmuxSession.quote(binary)) catalogue fetch", environment: f.environment, width: 120, height: 20)
        // Held after 60,000 bytes: the bar still follows (the rate falls, the time left grows),
        // within the 60 s after which the stalled transfer is given up and drawn a last time.
        try await tmux.waitFor("the bar part-way, with the rate and the time left", deadline: .seconds(45)) { lines in
            lines.contains {
                $0.range(of: #"^Downloading \[#{7}-{13}\] 60 kB of 167 kB · [0-9.]+ (B|kB|MB)/s · [0-9]+ (s|min|h)"#,
                         options: .regularExpression) != nil
            }
        }
        try await f.site.release()
        let report = try await tmux.exitReport()
        #expect(report.status == 0)
        let screen = try await tmux.screen()
        // The last drawing: the whole file, and the rate of a transfer that took over half a second.
        #expect(screen.contains {
            $0.range(of: #"^Downloading \[#{20}\] 167 kB of 167 kB · [0-9.]+ (B|kB|MB)/s$"#, options: .regularExpression) != nil
        }, "\(screen.joined(separator: "\n"))")
    }

    @Test("a connection that keeps breaking: a few tries with pauses, then a clear message, the part kept for next time")
    func keepsBreaking() async throws {
        let f = try await Fetching()
        try await f.site.honourRange()
        try await f.site.drop(after: 10_000, count: 10)
        let result = try await f.fetch()
        #expect(result.status == 1, "\(result)")
        let downloads = try await f.downloads()
        #expect(downloads.count == 4, "four tries in all: \(downloads)")
        let partial = try #require(try FileManager.default.contentsOfDirectory(atPath: f.cache).first { $0.hasSuffix(".part") })
        let kept = try FileManager.default.attributesOfItem(atPath: f.cache + "/" + partial)[.size] as? Int
        #expect(kept == 40_000, "each try resumed after the last: \(downloads)")
        #expect(result.stderr.contains("the download failed: the connection broke before the answer was complete; 40 kB kept in "),
                "\(result)")
        #expect(result.stderr.contains("run again to continue"), "\(result)")
    }

    @Test("Ctrl-C mid-download: exit 130, the part kept; the next run resumes it with a 206 and the file is whole")
    func interruptedThenResumed() async throws {
        let f = try await Fetching()
        try await f.site.honourRange()
        try await f.site.hold(after: 60_000)
        let child = try ProcessRunner.startCrates(["catalogue", "fetch"], environment: f.environment)
        try await f.site.waitUntilHeld()
        // The bytes sent before the hold are in the file before the signal: what is kept is known.
        try await waitUntil("60,000 bytes in the partial file", lastSeen: { child.stderrSoFar }) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: f.cache)) ?? []
            guard let partial = names.first(where: { $0.hasSuffix(".part") }) else { return false }
            return (try? FileManager.default.attributesOfItem(atPath: f.cache + "/" + partial)[.size] as? Int) == 60_000
        }
        #expect(child.signal(SIGINT))
        let stopped = await child.result()
        try await f.site.release()
        #expect(!stopped.signalled && stopped.status == 130, "\(stopped)")
        #expect(stopped.stderr.contains("60 kB kept in "), "\(stopped)")

        let again = try await f.fetch()
        #expect(again.status == 0, "\(again)")
        let path = try #require(Self.fetchedPath(again), "\(again)")
        try await f.expectTheSiteFile(at: path, again)
        let last = try #require(try await f.downloads().last)
        #expect(last.range == "bytes=60000-" && last.status == 206, "\(last)")
    }

    @Test("libcurl that cannot be loaded: said in the loader's words, exit 1, nothing fetched or built")
    func libcurlMissing() async throws {
        let f = try await Fetching()
        // A file named as libcurl that is no library: the dynamic loader refuses it, as it
        // would a machine without libcurl. Only the first transfer loads libcurl.
        let libraries = f.sandbox.directory.appendingPathComponent("libraries")
        try FileManager.default.createDirectory(at: libraries, withIntermediateDirectories: true)
        try Data("not a library".utf8).write(to: libraries.appendingPathComponent("libcurl.so.4"))
        var environment = f.environment
        environment["LD_LIBRARY_PATH"] = libraries.path
        let result = try await ProcessRunner.crates(["catalogue", "fetch"], environment: environment, deadline: .seconds(300))
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("no transfer could begin: libcurl could not be loaded"), "\(result)")
        #expect(try await f.site.stats().requests == 0, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: f.cache), "\(result)")
    }

    @Test("429 with Retry-After: stops at once, says the clock time to try again, and asks nothing before it (this run nor the next)")
    func tooManyRequests() async throws {
        let f = try await Fetching()
        // The checksum file is answered; the download gets the 429.
        try await f.site.throttle(after: 1, retry: "3600")
        let before = Date()
        let result = try await f.fetch()
        let after = Date()
        #expect(result.status == 1, "\(result)")
        // The wait is kept in whole seconds, rounded up: the latest it can name is after's, rounded.
        let latest = Date(timeIntervalSince1970: after.addingTimeInterval(3600).timeIntervalSince1970.rounded(.up))
        let times = Set([before.addingTimeInterval(3600), latest].map { Self.clock($0) })
        #expect(times.contains { result.stderr.contains("asks for no more requests until \($0): try again then") }, "\(times) \(result)")
        let stats = try await f.site.stats()
        #expect(stats.requests == 2, "no request after the 429: \(stats.log)")

        let again = try await f.fetch()
        #expect(again.status == 1, "\(again)")
        #expect(times.contains { again.stderr.contains("until \($0)") }, "\(again)")
        let requests = try await f.site.stats().requests
        #expect(requests == 2, "the next run asks nothing before that time")
    }

    @Test("a file verified once is not read again: its digest is kept beside it, trusted while its size and time hold")
    func verifiedOnce() async throws {
        let f = try await Fetching()
        let first = try await f.fetch(["--date", "20250601"])
        #expect(first.status == 0, "\(first)")
        let path = f.cache + "/discogs_20250601_releases.xml.gz"
        try await f.expectTheSiteFile(at: path, first)
        // Hashed as it was written: not read again to be checked.
        #expect(!first.stderr.contains("checking the SHA-256"), "\(first)")

        let again = try await f.fetch(["--date", "20250601"])
        #expect(again.status == 0, "\(again)")
        #expect(again.stderr.contains("discogs_20250601_releases.xml.gz is here already, SHA-256 verified"), "\(again)")
        #expect(!again.stderr.contains("checking the SHA-256"), "\(again)")
        #expect(try await f.downloads().count == 1)

        // Changed since it was checked (its time): read and checked again, then trusted again.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)], ofItemAtPath: path)
        let touched = try await f.fetch(["--date", "20250601"])
        #expect(touched.status == 0 && touched.stderr.contains("checking the SHA-256"), "\(touched)")
        let trusted = try await f.fetch(["--date", "20250601"])
        #expect(trusted.status == 0 && !trusted.stderr.contains("checking the SHA-256"), "\(trusted)")

        // Damaged in place (a write changes its time): checked, refused, downloaded again.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: Data([0x00, 0x01, 0x02]))
        try handle.close()
        let damaged = try await f.fetch(["--date", "20250601"])
        #expect(damaged.status == 0, "\(damaged)")
        #expect(damaged.stderr.contains("does not match Discogs' checksum: downloading it again"), "\(damaged)")
        try await f.expectTheSiteFile(at: path, damaged)
        #expect(try await f.downloads().count == 2)
    }

    @Test("once a newer dump is fetched and built, the older dumps crates fetched are removed; nothing else is")
    func olderDumpsRemoved() async throws {
        let f = try await Fetching()
        #expect(try await f.fetch(["--date", "20250601"]).status == 0)
        let older = f.cache + "/discogs_20250601_releases.xml.gz"
        #expect(FileManager.default.fileExists(atPath: older))
        // Not crates' own dumps: left alone.
        let others = [f.cache + "/discogs_20250601_artists.xml.gz", f.cache + "/notes.txt"]
        for other in others { #expect(FileManager.default.createFile(atPath: other, contents: Data("keep".utf8))) }

        let newer = try await f.fetch(["--date", "20250701"])
        #expect(newer.status == 0, "\(newer)")
        #expect(newer.stdoutLines.contains("Removed discogs_20250601_releases.xml.gz (167 kB), an older dump"), "\(newer)")
        #expect(!FileManager.default.fileExists(atPath: older))
        #expect(!FileManager.default.fileExists(atPath: older + ".sha256"))
        let newest = f.cache + "/discogs_20250701_releases.xml.gz"
        #expect(FileManager.default.fileExists(atPath: newest))
        for other in others { #expect(FileManager.default.fileExists(atPath: other), "\(other)") }

        // Fetching an older month again removes nothing newer.
        let back = try await f.fetch(["--date", "20250601"])
        #expect(back.status == 0, "\(back)")
        #expect(!back.stdout.contains("Removed"), "\(back)")
        #expect(FileManager.default.fileExists(atPath: newest))
    }

    @Test("a file that does not match the checksum file: refused, removed, exit 1")
    func checksumMismatch() async throws {
        let f = try await Fetching()
        try await f.site.wrongChecksum()
        let result = try await f.fetch()
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("does not match the SHA-256 of Discogs' checksum file: the file was removed and is not used"),
                "\(result)")
        #expect(!result.stdout.contains("Built the Discogs catalogue"), "\(result)")
        let left = try FileManager.default.contentsOfDirectory(atPath: f.cache).filter { $0.contains("releases") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test("the newest month has no checksum file yet: the month before is fetched")
    func monthBefore() async throws {
        let f = try await Fetching()
        try await f.site.currentMonthMissing()
        let result = try await f.fetch()
        #expect(result.status == 0, "\(result)")
        let log = try await f.site.stats().log
        #expect(log.count == 3, "\(log)")
        guard log.count == 3 else { return }
        let asked = log.compactMap { $0.name.flatMap { DiscogsDumpDate(digits: String($0.dropFirst(8).prefix(8))) } }
        #expect(log[0].name?.hasSuffix("_CHECKSUM.txt") == true && log[0].status == 404, "\(log)")
        #expect(log[1].name?.hasSuffix("_CHECKSUM.txt") == true && log[1].status == 200, "\(log)")
        #expect(asked.count == 3 && asked[1] == asked[0].monthBefore && asked[2] == asked[1], "\(log)")
        let path = try #require(Self.fetchedPath(result), "\(result)")
        #expect(path.hasSuffix("/" + asked[1].releasesFileName), "\(result)")
        #expect(result.stderr.contains("no complete dump of \(asked[0]) yet: trying the month before"), "\(result)")
        try await f.expectTheSiteFile(at: path, result)

        // Fetched again: the file is here and verified, the checksum file kept: one request
        // (this month's checksum file, which may have come since).
        let again = try await f.fetch()
        #expect(again.status == 0, "\(again)")
        let stats = try await f.site.stats()
        #expect(stats.requests == 4, "\(stats.log)")
    }

    /// On a small tmpfs (root only), so that the disk is really too small: an injected
    /// threshold would test the threshold, not statvfs on the cache directory.
    @Test(
        "a disk too small for the file: said before downloading, with the room needed (Content-Length, else the estimate)",
        .enabled(if: SmallDisk.canMount, "mounting a tmpfs needs root (CAP_SYS_ADMIN)"))
    func noSpace() async throws {
        var f = try await Fetching()
        let disk = try SmallDisk(in: f.sandbox, kilobytes: 64)
        defer { disk.unmount() }
        f.cacheHome = disk.mountPoint
        let size = try await f.site.stats().size
        let result = try await f.fetch()
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("not enough disk space in \(f.cache): the download needs 167 kB, "), "\(size) \(result)")
        let written = try FileManager.default.contentsOfDirectory(atPath: f.cache).filter { $0.contains("releases") }.reduce(0) {
            $0 + ((try? FileManager.default.attributesOfItem(atPath: f.cache + "/" + $1)[.size] as? Int) ?? 0)
        }
        #expect(written == 0, "nothing written")

        // No size in the answer: the estimate for the real file.
        try await f.site.sendLength(false)
        let unsized = try await f.fetch()
        #expect(unsized.status == 1, "\(unsized)")
        #expect(unsized.stderr.contains("the download needs 11 GB, "), "\(unsized)")
    }

    @Test("--date names the dump: that one is fetched, whatever is newer; a date the site has no dump of is said, exit 1")
    func givenDate() async throws {
        let f = try await Fetching()
        let result = try await f.fetch(["--date", "20250601"])
        #expect(result.status == 0, "\(result)")
        #expect(Self.fetchedPath(result) == f.cache + "/discogs_20250601_releases.xml.gz", "\(result)")
        let names = try await f.site.stats().log.map(\.name)
        #expect(names == ["discogs_20250601_CHECKSUM.txt", "discogs_20250601_releases.xml.gz"], "\(names)")

        try await f.site.missing(date: "20250501")
        let missing = try await f.fetch(["--date", "20250501"])
        #expect(missing.status == 1, "\(missing)")
        #expect(missing.stderr.contains("Discogs' data site has no complete dump of 2025-05-01"), "\(missing)")
        let requests = try await f.site.stats().requests
        #expect(requests == 3, "one request for the checksum file only")
    }

    @Test("--date that is not a date, or is after today: refused before any request")
    func badDate() async throws {
        let f = try await Fetching()
        let result = try await f.fetch(["--date", "2026-06-01"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--date takes a dump's date as Discogs names its files, YYYYMMDD"), "\(result)")
        let future = try await f.fetch(["--date", "20990101"])
        #expect(future.status == 64, "\(future)")
        #expect(future.stderr.contains("20990101 is after today"), "\(future)")
        let requests = try await f.site.stats().requests
        #expect(requests == 0)
    }

    @Test("a data site crates will not ask (plain http beyond loopback): the setting named, nothing sent")
    func insecureSite() async throws {
        let f = try await Fetching()
        var environment = f.environment
        environment["CRATES_DISCOGS_DATA"] = "http://data.example.com"
        let result = try await ProcessRunner.crates(["catalogue", "fetch"], environment: environment)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("Discogs' data site cannot be asked: refusing plain http to data.example.com: use https "
            + "(plain http is only for loopback) (check CRATES_DISCOGS_DATA)"), "\(result)")
    }

    static func clock(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = Calendar.current.isDate(date, inSameDayAs: Date()) ? "HH:mm" : "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
