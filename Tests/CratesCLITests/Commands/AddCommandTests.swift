import CratesCore
@_spi(Benchmark) import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// `crates add`: the real binary, a real database, and for --wait the loopback Discogs server.
@Suite("crates add (process)", .processTimeLimit)
struct AddCommandTests {
    @Test("a release id typed bare, as crates search prints it, is refused with the r form offered; a release page of CRATES_DISCOGS_WEB is taken")
    func releaseHints() async throws {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "hint-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "hint-token")
        let bare = try await sandbox.crates(["add", "1401"])
        #expect(bare.status == 1 && bare.stderr.contains("for the Discogs release 1401, type r1401"), "\(bare)")
        let url = try await sandbox.crates(["add", "https://example.org/not/a/release"])
        #expect(url.status == 1 && url.stderr.contains("is a web address but not a Discogs release page"), "\(url)")
        var mirrored = sandbox
        mirrored.web = server.base
        let page = try await mirrored.crates(["add", server.base + "/release/5134861-HammerFall-Glory-To-The-Brave"])
        #expect(page.status == 0 && page.stdoutLines.first?.hasSuffix("matched\tHammerFall — Glory To The Brave") == true, "\(page)")
    }

    @Test("valid codes in any form: one line each (id, GTIN, state), stored pending, exit 0")
    func valid() async throws {
        let sandbox = try CommandSandbox()
        let result = try await sandbox.crates(["add", "5099750442227", "0-77774-62002-4", "04252614"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdoutLines == [
            "1\t5099750442227\tpending\t", "2\t0077774620024\tpending\t", "3\t0042100005264\tpending\t",
        ])
        let store = try sandbox.openStore()
        #expect(try await store.record(2)?.addMethod == .typed)
        #expect(try await store.waitingCount() == 3)
    }

    @Test("invalid codes and non-records are refused with the reason; the valid ones are added; exit 1")
    func refused() async throws {
        let sandbox = try CommandSandbox()
        let result = try await sandbox.crates(["add", "5099750442224", "5099750442227", "9781617292156", "50997X0442227"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdoutLines == ["1\t5099750442227\tpending\t"])
        #expect(result.stderrLines == [
            "crates add: 5099750442224: check digit should be 7, got 4: a misread or a typo (read as EAN-13)",
            "crates add: 9781617292156: an ISBN: a book, not a record; add it anyway with --force",
            "crates add: 50997X0442227: \"X\" at position 6 is not a digit: a barcode holds only digits, "
                + "with spaces or dashes between groups",
        ], "\(result)")
        let isbn = try #require(GTIN(canonical: "9781617292156"))
        #expect(try await sandbox.openStore().copies(of: isbn) == 0)
    }

    @Test("--force adds a barcode that is not a record's (a book) to be looked up; never a shop's price label")
    func force() async throws {
        let sandbox = try CommandSandbox()
        let result = try await sandbox.crates(["add", "--force", "9781617292156", "2012345678903"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdoutLines == ["1\t9781617292156\tpending\t"], "\(result)")
        #expect(result.stderrLines.count == 1 && result.stderrLines[0].hasPrefix("crates add: 2012345678903: a restricted-circulation number"),
            "\(result)")
        let store = try sandbox.openStore()
        #expect(try await store.record(1)?.lookupState == .pending, "waits for its lookup like any barcode")
        #expect(try await store.waitingCount() == 1)
    }

    @Test("a barcode already there is skipped (exit 2) unless --copy adds another copy")
    func duplicate() async throws {
        let sandbox = try CommandSandbox()
        #expect(try await sandbox.crates(["add", "5099750442227"]).status == 0)
        let again = try await sandbox.crates(["add", "5099750442227"])
        #expect(again.status == 2, "\(again)")
        #expect(again.stdout.isEmpty)
        #expect(again.stderr.contains("already in the collection (1 copy)") && again.stderr.contains("--copy"), "\(again)")
        // The same code twice in one run: the second is a duplicate of the first.
        let twice = try await sandbox.crates(["add", "5012345678900", "5012345678900"])
        #expect(twice.status == 2, "\(twice)")
        #expect(twice.stdoutLines.count == 1)
        let copy = try await sandbox.crates(["add", "--copy", "5099750442227", "5099750442227"])
        #expect(copy.status == 0, "\(copy)")
        #expect(copy.stdoutLines.map { $0.split(separator: "\t").dropFirst().first } == ["5099750442227", "5099750442227"])
        let store = try sandbox.openStore()
        let gtin = try #require(GTIN(canonical: "5099750442227"))
        #expect(try await store.copies(of: gtin) == 3)
    }

    @Test("a duplicate names the record the collection has, once it is looked up; its barcode before")
    func duplicateNamesTheRecord() async throws {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "dup-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "dup-token")
        #expect(try await sandbox.crates(["add", "--wait", "074643260619"]).status == 0)
        let again = try await sandbox.crates(["add", "074643260619"])
        #expect(again.status == 2, "\(again)")
        #expect(again.stderrLines == [
            "crates add: 074643260619: Persuader, The — Stockholm is already in the collection (1 copy): skipped; add another copy with --copy"
        ], "\(again)")
        // Not looked up yet: nothing to name it by but its barcode.
        #expect(try await sandbox.crates(["add", "5099750442227"]).status == 0)
        let pending = try await sandbox.crates(["add", "5099750442227"])
        #expect(pending.stderrLines == [
            "crates add: 5099750442227: 5099750442227 is already in the collection (1 copy): skipped; add another copy with --copy"
        ], "\(pending)")
    }

    @Test("a refusal outranks a duplicate in the exit status")
    func exitPrecedence() async throws {
        let sandbox = try CommandSandbox()
        #expect(try await sandbox.crates(["add", "5099750442227"]).status == 0)
        let result = try await sandbox.crates(["add", "5099750442227", "123"])
        #expect(result.status == 1, "\(result)")
    }

    @Test("no code at all is a usage error")
    func noCodes() async throws {
        let result = try await CommandSandbox().crates(["add"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("give a barcode or a Discogs release to add, or --manual"), "\(result)")
    }

    @Test("--wait: the lookups run in this process against Discogs (loopback); each line shows its outcome")
    func waitForLookups() async throws {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "add-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "add-token")
        let result = try await sandbox.crates(
            ["add", "--wait", "--timeout", "60", "727361626525", "5012345678900", "5000000000098"], deadline: .seconds(120))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines == [
            "1\t0727361626525\tmatched\tHammerFall — Glory To The Brave",
            "2\t5012345678900\tambiguous\t2 pressings share this barcode: choose one in the collection UI",
            "3\t5000000000098\tnotFound\tDiscogs knows no release with this barcode",
        ], "\(result)")
        let store = try sandbox.openStore()
        #expect(try await store.details(1)?.release?.id == 5_134_861)
        #expect(try await store.waitingCount() == 0)
    }

    @Test("a Discogs release: added already matched, from the barcode the release lists; one without a barcode has none")
    func byRelease() async throws {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "add-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "add-token")
        let result = try await sandbox.crates(["add", "r5134861", "https://www.discogs.com/release/1-The-Persuader-Stockholm", "r999"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdoutLines == [
            "1\t0727361626525\tmatched\tHammerFall — Glory To The Brave", "2\t\tmatched\tPersuader, The — Stockholm",
        ], "\(result)")
        #expect(result.stderrLines == ["crates add: r999: Discogs has no release 999"], "\(result)")
        // A release without a barcode: its copies are counted by release.
        let again = try await sandbox.crates(["add", "r1"])
        #expect(again.status == 2, "\(again)")
        #expect(again.stderr.contains("r1: Persuader, The — Stockholm is already in the collection (1 copy)"), "\(again)")
        #expect(try await sandbox.openStore().record(1)?.addMethod == .releaseID)
        // Its barcode is now in the collection: scanning it again is a duplicate.
        #expect(try await sandbox.crates(["add", "727361626525"]).status == 2)
    }

    @Test("--wait with Discogs releases (one listing a barcode, one without), and a barcode: returns once the barcode's lookup is done, exit 0")
    func waitByRelease() async throws {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "add-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "add-token")
        // Before, a record added by release (matched at once, never in the queue) was waited
        // for until the time limit: exit 3, "gave up waiting after 30 s".
        let result = try await sandbox.crates(
            ["add", "--wait", "--timeout", "30", "r5134861", "r1", "5012345678900"], deadline: .seconds(120))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines == [
            "1\t0727361626525\tmatched\tHammerFall — Glory To The Brave", "2\t\tmatched\tPersuader, The — Stockholm",
            "3\t5012345678900\tambiguous\t2 pressings share this barcode: choose one in the collection UI",
        ], "\(result)")
        let alone = try await sandbox.crates(["add", "--wait", "--timeout", "30", "--copy", "r5134861"], deadline: .seconds(120))
        #expect(alone.status == 0, "\(alone)")
        #expect(alone.stdoutLines == ["4\t0727361626525\tmatched\tHammerFall — Glory To The Brave"], "\(alone)")
    }

    @Test("--wait without signing in: added, left in the queue, exit 3 with what to do")
    func waitNotSignedIn() async throws {
        let sandbox = try CommandSandbox()
        let result = try await sandbox.crates(["add", "--wait", "5099750442227"])
        #expect(result.status == 3, "\(result)")
        #expect(result.stdoutLines == ["1\t5099750442227\tpending\t"])
        #expect(result.stderr.contains("not signed in to Discogs") && result.stderr.contains("crates auth"), "\(result)")
    }

    @Test("--wait when Discogs refuses the saved credentials (401): exit 3, the records wait in the queue")
    func waitUnauthorized() async throws {
        var sandbox = try CommandSandbox()
        let signInServer = try await DiscogsTestServer.start(token: "old-token")
        sandbox.api = signInServer.base
        try await sandbox.signIn(token: "old-token")
        // A server that no longer accepts that token, as after revoking it on Discogs.
        let server = try await DiscogsTestServer.start(token: "new-token")
        sandbox.api = server.base
        let result = try await sandbox.crates(["add", "--wait", "--timeout", "30", "727361626525"], deadline: .seconds(120))
        #expect(result.status == 3, "\(result)")
        #expect(result.stdoutLines == ["1\t0727361626525\tpending\t"], "\(result)")
        #expect(result.stderr.contains("refused the credentials"), "\(result)")
        #expect(try await sandbox.openStore().waitingCount() == 1)
    }

    @Test("--wait when Discogs cannot be reached: the lookup fails (to be retried), exit 3")
    func waitOffline() async throws {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "add-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "add-token")
        sandbox.api = "http://127.0.0.1:9"  // nothing listens there
        let result = try await sandbox.crates(["add", "--wait", "--timeout", "30", "727361626525"], deadline: .seconds(120))
        #expect(result.status == 3, "\(result)")
        let fields = try #require(result.stdoutLines.first).split(separator: "\t", omittingEmptySubsequences: false)
        #expect(fields.prefix(3) == ["1", "0727361626525", "failed"], "\(result)")
        #expect(fields.last?.contains("Discogs is unreachable") == true, "\(result)")
    }

    @Test("--timeout must be above 0 and at most a day", arguments: ["0", "-5", "1e300", "nan", "ten"])
    func badTimeout(_ value: String) async throws {
        let result = try await CommandSandbox().crates(["add", "--wait", "--timeout", value, "5099750442227"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--timeout"), "\(result)")
    }
}
