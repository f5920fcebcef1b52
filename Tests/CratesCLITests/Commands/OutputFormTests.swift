import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// Output for people and for scripts: `crates list`, `search`, `location list` and `barcode`
/// print aligned columns under a heading on a terminal (run here under tmux), and to a pipe
/// the tab-separated lines scripts rely on, with a line of column names on `--header`.
@Suite("list, search, location list, barcode: a terminal's columns, a pipe's lines (process, tmux)", .processTimeLimit)
struct OutputFormTests {
    /// Runs `arguments` under tmux (standard output a terminal) and returns the screen once
    /// the program has exited.
    private func onTerminal(_ arguments: [String], environment: [String: String], width: Int = 100) async throws -> [String] {
        let binary = try ProcessRunner.cratesBinary().path
        let command = ([binary] + arguments).map(TmuxSession.quote).joined(separator: " ")
        let tmux = try await TmuxSession(command: command, environment: environment, width: width, height: 40)
        let report = try await tmux.exitReport()
        #expect(report.status == 0 || arguments.first == "barcode", "\(arguments): exit \(report.status)")
        let screen = try await tmux.screen()
        return Array(screen.prefix { !$0.hasPrefix(TmuxSession.exitMarker) })
    }

    /// Where each heading starts on `line`.
    private func starts(_ headings: [String], in line: String) -> [Int]? {
        var result: [Int] = []
        for heading in headings {
            guard let range = line.range(of: heading) else { return nil }
            result.append(line.distance(from: line.startIndex, to: range.lowerBound))
        }
        return result
    }

    @Test("crates list: aligned columns under a heading on a terminal; the same tab lines to a pipe, --header adds the names")
    func list() async throws {
        let sandbox = try CommandSandbox()
        _ = try await ListCommandTests.seedSections(try sandbox.openStore())
        let screen = try await onTerminal(["list"], environment: sandbox.environment)
        let heading = try #require(screen.first, "\(screen)")
        let columns = try #require(starts(["ID", "GENRE", "ARTIST", "TITLE", "FORMAT", "YEAR"], in: heading), "\(screen)")
        let ada = try #require(screen.first { $0.contains("Ambient") }, "\(screen)")
        #expect(!ada.contains("\t"), "\(screen)")
        // Each value starts under its heading.
        #expect(starts(["Electronic", "Ada", "Ambient", "CD, Album", "1997"], in: ada) == Array(columns.dropFirst()), "\(screen)")
        // Readable words: a record waiting for Discogs says so.
        #expect(screen.contains { $0.contains("Unknown") && $0.contains("waiting") }, "\(screen)")
        #expect(screen.allSatisfy { $0.count <= 100 })

        let piped = try await sandbox.crates(["list"])
        #expect(piped.status == 0 && piped.stdoutLines.count == 8 && piped.stdoutLines.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 14 }, "\(piped)")
        let headed = try await sandbox.crates(["list", "--header"])
        #expect(headed.stdoutLines.first == "id\tgtin\tstate\tsection\tartist\ttitle\tformat\tyear\tlabel\tcatno\trelease_id\tadded\tcollector\tplace", "\(headed)")
        #expect(Array(headed.stdoutLines.dropFirst()) == piped.stdoutLines)
        let both = try await sandbox.crates(["list", "--header", "--json"])
        #expect(both.status == 64 && both.stderr.contains("--header is for the tab-separated lines"), "\(both)")
    }

    @Test("crates list on an empty collection: how to add the first record on a terminal, nothing to a pipe")
    func emptyList() async throws {
        let sandbox = try CommandSandbox()
        _ = try sandbox.openStore()
        let screen = try await onTerminal(["list"], environment: sandbox.environment)
        #expect(screen.joined(separator: " ").contains("The collection is empty. Add the first record:"), "\(screen)")
        #expect(screen.joined(separator: " ").contains("crates add BARCODE"), "\(screen)")
        let piped = try await sandbox.crates(["list"])
        #expect(piped.status == 0 && piped.stdout.isEmpty && piped.stderr.isEmpty, "\(piped)")
    }

    @Test("crates barcode: a sentence in readable words on a terminal; tab lines to a pipe")
    func barcode() async throws {
        let sandbox = try CommandSandbox()
        let screen = try await onTerminal(["barcode", "074644022513", "5099750442227"], environment: sandbox.environment, width: 120)
        let heading = try #require(screen.first, "\(screen)")
        #expect(starts(["CODE", "GTIN", "WHAT"], in: heading) != nil, "\(screen)")
        #expect(screen.contains { $0.contains("0074644022513  UPC-A, United States and Canada; Discogs searches 074644022513, 0 74644 02251 3") }, "\(screen)")
        let piped = try await sandbox.crates(["barcode", "074644022513"])
        #expect(piped.stdout == "074644022513\t0074644022513\tUPC-A\t-\tUnited States and Canada\t0074644022513; 074644022513; 0 74644 02251 3\t-\n", "\(piped)")
        let headed = try await sandbox.crates(["barcode", "--header", "074644022513"])
        #expect(headed.stdoutLines == ["input\tcanonical\tkind\tadd-on\tcountry-or-class\tlookup-forms\tnotes"] + piped.stdoutLines, "\(headed)")
    }

    @Test("crates location list: aligned on a terminal, tab lines and --header to a pipe")
    func locations() async throws {
        let sandbox = try CommandSandbox()
        for arguments in [["location", "add", "Living Room"], ["location", "add", "Shelf 2", "--in", "Living Room"]] {
            let made = try await sandbox.crates(arguments)
            #expect(made.status == 0, "\(made)")
        }
        let screen = try await onTerminal(["location", "list"], environment: sandbox.environment)
        let heading = try #require(screen.first, "\(screen)")
        let columns = try #require(starts(["PLACE", "ID", "LABEL", "RECORDS"], in: heading), "\(screen)")
        let shelf = try #require(screen.first { $0.contains("Shelf 2") }, "\(screen)")
        #expect(shelf.hasPrefix("Living Room › Shelf 2") && !shelf.contains("\t"), "\(screen)")
        #expect(shelf.dropFirst(columns[2]).hasPrefix("290"), "the label code under LABEL: \(screen)")
        let piped = try await sandbox.crates(["location", "list", "--header"])
        #expect(piped.stdoutLines.first == "id\tcode\tcount\tpath", "\(piped)")
        #expect(piped.stdoutLines.count == 3 && piped.stdoutLines[2].hasSuffix("\t0\tLiving Room › Shelf 2"), "\(piped)")
    }

    @Test("crates search: aligned with the release as crates add takes it on a terminal; tab lines to a pipe")
    func search() async throws {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start()
        sandbox.api = server.base
        try await sandbox.signIn(token: server.token)
        let piped = try await sandbox.crates(["search", "--catno", "SHVL 804"])
        #expect(piped.status == 0, "\(piped)")
        let first = try #require(piped.stdoutLines.first?.split(separator: "\t", omittingEmptySubsequences: false).map(String.init))
        #expect(first.count == 9, "\(piped)")
        let headed = try await sandbox.crates(["search", "--header", "--catno", "SHVL 804"])
        #expect(headed.stdoutLines == ["release_id\tartist\ttitle\tcountry\tyear\tformat\tlabel\tcatno\turl"] + piped.stdoutLines, "\(headed)")
        var environment = sandbox.environment
        environment["CRATES_DISCOGS_API"] = server.base
        let screen = try await onTerminal(["search", "--catno", "SHVL 804"], environment: environment, width: 140)
        #expect(starts(["RELEASE", "ARTIST", "TITLE", "COUNTRY", "YEAR", "FORMAT", "LABEL", "CAT#"], in: screen.first ?? "") != nil, "\(screen)")
        #expect(screen.contains { $0.hasPrefix("r\(first[0]) ") && $0.contains(first[2]) }, "\(screen)")
    }
}
