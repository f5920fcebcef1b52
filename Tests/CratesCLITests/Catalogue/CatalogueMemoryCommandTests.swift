import CratesTestSupport
import Foundation
import Testing

/// A catalogue build's memory is bounded whatever the dump holds: it does not grow with the
/// number of releases, and fields of megabytes are not held whole. `crates catalogue build`
/// runs measured (`PeakMemory`: `prlimit --as` and `/usr/bin/time -v`).
///
/// The full measure is `make test`'s: 50,000 releases against 400,000
/// (`CRATES_FULL_MEMORY_TEST=1`), through the tests' own build (or a release build named in
/// `$CRATES_RELEASE_BINARY`). Elsewhere a tenth of each. The tests run beside each other and
/// the rest of the suite: each reads the peak of its own process.
@Suite("crates catalogue build in bounded memory (process)", .memoryProcessTimeLimit)
struct CatalogueMemoryCommandTests {
    static let tools = PeakMemory.measurable

    /// The binary measured: a release build when one is named, else the tests' own.
    static var binary: String? {
        if let release = ProcessInfo.processInfo.environment["CRATES_RELEASE_BINARY"], !release.isEmpty { return release }
        return try? ProcessRunner.cratesBinary().path
    }

    /// Runs crates measured (PeakMemory); its result and peak resident memory in MB.
    static func measured(_ arguments: [String], sandbox: CommandSandbox, deadline: Duration = .seconds(600)) async throws -> (ProcessResult, Double) {
        try await PeakMemory.run(
            [try #require(Self.binary)] + arguments, environment: sandbox.environment,
            report: sandbox.directory.appendingPathComponent("time.txt").path, deadline: deadline)
    }

    /// Whether the releases are full size: set by `make test` (the Makefile).
    static let full = ProcessInfo.processInfo.environment["CRATES_FULL_MEMORY_TEST"] == "1"

    /// The peak memory in MB of a build of `releases` generated releases (crates-bench's
    /// generator, real-size releases with every trait, streamed into the build's standard
    /// input: no dump on disk), and the build's result.
    static func build(releases: Int, sandbox: CommandSandbox) async throws -> (ProcessResult, Double) {
        let binary = try #require(Self.binary)
        let generator = try ProcessRunner.builtProduct(named: "crates-bench").path
        let catalogue = sandbox.directory.appendingPathComponent("catalogue-\(releases).sqlite").path
        let report = sandbox.directory.appendingPathComponent("time-\(releases).txt").path
        let q = ProcessRunner.quote
        let measuring = PeakMemory.prefix(report: report).map(q).joined(separator: " ")
        let script = (PeakMemory.raised + [generator]).map(q).joined(separator: " ") + " generate-dump --releases \(releases) --seed 7 --out - 2>/dev/null"
            + " | \(measuring) \(q(binary)) catalogue build --catalogue \(q(catalogue)) --date 20250601 -"
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script], environment: sandbox.environment, deadline: .seconds(1_100))
        return (result, try PeakMemory.megabytes(report: report))
    }

    @Test("a build's memory does not grow with the releases: 400,000 against 50,000 (a tenth of each outside make test)", .enabled(if: tools))
    func flat() async throws {
        let sandbox = try CommandSandbox()
        let small = Self.full ? 50_000 : 5_000
        let large = Self.full ? 400_000 : 40_000
        let (first, smallPeak) = try await Self.build(releases: small, sandbox: sandbox)
        #expect(first.status == 0, "\(first)")
        let (second, largePeak) = try await Self.build(releases: large, sandbox: sandbox)
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.contains("Built the Discogs catalogue of 2025-06-01"), "\(second.stdout)")
        // Eight times the releases (and their labels, terms, keys and pages): the same
        // memory, but for what the bounded caches fill before they are full (SQLite's page
        // cache and its sort, 16 MB each, and the term cache). Measured with the release
        // build: 52 and 80 MB; before they were bounded, 58 and 111 MB.
        #expect(largePeak < smallPeak + 36, "\(small) releases took \(smallPeak) MB, \(large) took \(largePeak) MB")
        #expect(largePeak < 200, "\(large) releases took \(largePeak) MB")
    }

    /// Runs python3 `script` (with `sys.argv[1]` the path): quicker than Swift for a file of
    /// 100 MB, and off the tests' small thread pool.
    static func python(_ script: String, _ arguments: [String]) async throws {
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", "-c", script] + arguments, deadline: .seconds(600))
        #expect(result.status == 0, "\(result)")
    }

    @Test("a 50 MB title, a 20 MB and a 10 MB catalogue number, a 1 MB title: under 150 MB, nothing stored whole", .enabled(if: tools))
    func hugeFields() async throws {
        let sandbox = try CommandSandbox()
        let dump = sandbox.directory.appendingPathComponent("huge.xml").path
        try await Self.python("""
            import sys
            with open(sys.argv[1], "w") as f:
                f.write('<releases><release id="1"><title>One</title></release>\\n')
                f.write('<release id="2"><title>Long ' + 'é' * (1 << 19) + '</title><labels><label name="L" catno="' + '9' * (10 << 20) + '" id="3"/></labels></release>\\n')
                f.write('<release id="3"><title>' + 'x' * (50 << 20) + '</title></release>\\n')
                f.write('<release id="5"><labels><label name="L" catno="' + '7' * (20 << 20) + '" id="3"/></labels><title>Five</title></release>\\n')
                for n in range(6, 1000):
                    f.write('<release id="%d"><title>Title %d</title><labels><label name="L" catno="CAT %d" id="3"/></labels></release>\\n' % (n, n, n))
                f.write('</releases>\\n')
            """, [dump])
        let catalogue = sandbox.directory.appendingPathComponent("catalogue.sqlite").path
        let (built, peak) = try await Self.measured(["catalogue", "build", "--catalogue", catalogue, "--date", "20250601", dump], sandbox: sandbox)
        #expect(built.status == 0, "\(built)")
        #expect(built.stdout.contains("Built the Discogs catalogue of 2025-06-01: 996 releases"), "\(built.stdout)")
        #expect(built.stdout.contains("release 3: it is larger than 16 MB"), "\(built.stdout)")
        #expect(built.stdout.contains("release 5: it is larger than 16 MB"), "\(built.stdout)")
        #expect(peak < 150, "the build took \(peak) MB")
        // The long title and catalogue number are stored cut: a search prints a line of a
        // few kilobytes, not megabytes.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: catalogue)[.size] as? Int)
        #expect(size < 1_000_000, "the catalogue is \(size) bytes")
        let search = try await sandbox.crates(["search", "--catalogue", catalogue, "--title", "Long"])
        #expect(search.status == 0, "\(search.stderr)")
        #expect(search.stdoutLines.count == 1 && search.stdout.utf8.count < 4_000, "\(search.stdout.utf8.count) bytes")
    }
}
