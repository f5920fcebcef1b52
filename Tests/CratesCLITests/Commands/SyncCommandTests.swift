import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// `crates sync` and `crates edit` as processes, through libcurl against the loopback
/// server's collection.
@Suite("crates sync and crates edit (process)", .serialized, .processTimeLimit)
struct SyncCommandTests {
    static func signedIn() async throws -> (CommandSandbox, DiscogsTestServer) {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "sync-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "sync-token")
        return (sandbox, server)
    }

    /// Three copies matched to the fixtures' releases, added a minute apart.
    static func seedCopies(_ sandbox: CommandSandbox) async throws -> [Int64] {
        let store = try sandbox.openStore()
        var ids: [Int64] = []
        for (n, release) in [(1, "Stockholm"), (5_134_861, "Glory To The Brave"), (10_507_194, "Likemind 05")].enumerated() {
            let added = Seed.addedAt.addingTimeInterval(Double(n) * 60)
            let record = try await store.add(NewRecord(
                gtin: Fixtures.gtin(n), addedAt: added, addMethod: .typed,
                release: Seed.release(release.0, artist: "Artist", title: release.1, genre: "Rock")))
            ids.append(record.id)
        }
        return ids
    }

    /// The sync is killed -9 the moment Discogs has carried out its first add, before the
    /// answer (and so the instance id) reaches it: the server holds that answer until the
    /// process is gone. The next sync reconciles and adds the rest: one instance per copy.
    @Test("an add Discogs refuses: named, exit 5; the next sync leaves it alone and exits 0")
    func refusedAdd() async throws {
        let (sandbox, server) = try await Self.signedIn()
        defer { withExtendedLifetime(server) {} }
        let store = try sandbox.openStore()
        _ = try await store.add(NewRecord(
            gtin: Fixtures.gtin(7), addedAt: Seed.addedAt, addMethod: .typed,
            release: Seed.release(987_654_321, artist: "Nobody", title: "Withdrawn", genre: "Rock")))
        let first = try await sandbox.crates(["sync"])
        #expect(first.status == 5, "\(first)")
        #expect(first.stdoutLines.first?.contains("1 refused") == true, "\(first)")
        #expect(first.stdout.contains("not added to Discogs: 1 Nobody — Withdrawn: "), "\(first)")
        let again = try await sandbox.crates(["sync"])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("1 copy Discogs refused before is not sent again"), "\(again)")
    }

    @Test("kill -9 between the POST and storing the instance id, then a re-run: exactly one instance per copy")
    func killedMidPush() async throws {
        let (sandbox, server) = try await Self.signedIn()
        _ = try await Self.seedCopies(sandbox)
        try await server.collection.hold("add")
        let child = try ProcessRunner.startCrates(["sync"], environment: sandbox.environment)
        try await server.collection.waitUntilHeld()
        #expect(child.signal(SIGKILL))
        let killed = await child.result()
        #expect(killed.signalled, "\(killed)")
        try await server.collection.release()
        let afterKill = try await server.collection.dump().instances
        #expect(afterKill.count == 1, "the first add was carried out")

        let rerun = try await sandbox.crates(["sync"])
        #expect(rerun.status == 0, "\(rerun)")
        #expect(rerun.stdoutLines.first?.hasPrefix("Synced with Discogs (DamIDhagor): 0 pulled, 2 pushed, 0 linked,") == true, "\(rerun)")
        #expect(rerun.stdoutLines.contains("1 add an interrupted sync had sent was found on Discogs and linked (not added twice)."))
        let instances = try await server.collection.dump().instances
        #expect(instances.map(\.release_id).sorted() == [1, 5_134_861, 10_507_194], "exactly one instance per copy")
        let stats = try await server.collection.stats()
        #expect(stats.requests["add"] == 3 && stats.requests["release_instances"] == 1)

        let third = try await sandbox.crates(["sync"])
        #expect(third.status == 0, "\(third)")
        #expect(third.stdoutLines == [
            "Synced with Discogs (DamIDhagor): 0 pulled, 0 pushed, 0 linked, 0 updated, 0 conflicts, 0 removed; 4 requests used.",
        ])
        #expect(try await server.collection.stats().writes == 3, "the third sync wrote nothing")

        // What the copies are on Discogs shows in the list and the export.
        let list = try await sandbox.crates(["list", "--json"])
        #expect(list.status == 0)
        #expect(list.stdoutLines.allSatisfy { $0.contains(#""discogsCollection":{"folder":"Uncategorized","folderID":1,"#) })
    }

    @Test("edit sets grades, rating and note; sync writes them; a pulled copy comes with its own")
    func editThenSync() async throws {
        let (sandbox, server) = try await Self.signedIn()
        let ids = try await Self.seedCopies(sandbox)
        try await server.collection.seed(#"""
            {"instances": [{"release_id": 1, "rating": 2, "notes": [{"field_id": 2, "value": "Generic"}]},
                           {"release_id": 1, "rating": 5, "notes": [{"field_id": 3, "value": "second copy"}]}]}
            """#)
        let edit = try await sandbox.crates(["edit", String(ids[1]), "--media", "vg+", "--sleeve", "near mint", "--rating", "4", "--note", "signed"])
        #expect(edit.status == 0, "\(edit)")
        #expect(edit.stdoutLines.count == 1 && edit.stdoutLines[0].hasPrefix("\(ids[1])\t\(Fixtures.gtin(1).canonical)\tmatched\tRock\tArtist\tGlory To The Brave\t"),
                "the record as `crates list` prints it: \(edit)")
        let edited = try await sandbox.crates(["list", "--json"])
        let object = try #require(edited.stdoutLines.lazy.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.first { ($0["id"] as? Int).map(Int64.init) == ids[1] })
        #expect(object["mediaCondition"] as? String == "Very Good Plus (VG+)" && object["sleeveCondition"] as? String == "Near Mint (NM or M-)")
        #expect(object["rating"] as? Int == 4 && object["note"] as? String == "signed")

        let sync = try await sandbox.crates(["sync"])
        #expect(sync.status == 0, "\(sync)")
        #expect(sync.stdoutLines.first == "Synced with Discogs (DamIDhagor): 1 pulled, 2 pushed, 1 linked, 1 updated, 0 conflicts, 0 removed; 10 requests used.", "\(sync)")
        let glory = try #require(try await server.collection.dump().instances.first { $0.release_id == 5_134_861 })
        #expect(glory.rating == 4 && glory.note(1) == "Very Good Plus (VG+)" && glory.note(2) == "Near Mint (NM or M-)" && glory.note(3) == "signed")

        let csv = try await sandbox.crates(["export", "--csv", "-"])
        #expect(csv.status == 0)
        #expect(csv.stdoutLines.contains { $0.hasPrefix(",Artist,Stockholm,,\"CD, Album\",2,1997,1,Uncategorized,") && $0.contains(",,Generic,,") },
                "the linked copy took Discogs' rating and sleeve:\n\(csv.stdout)")
        #expect(csv.stdoutLines.contains(",Artist,Stockholm,,\"CD, Album\",5,1997,1,Uncategorized,2015-01-01 00:02:00,,,second copy,,,,Rock,UK,,,,,,,,,"),
                "the pulled copy: no barcode (nor place, nor values of the collector's), its rating and note:\n\(csv.stdout)")
        // A record without a barcode everywhere: the list's gtin column empty, JSON's gtin null.
        let listed = try await sandbox.crates(["list"])
        let pulledLine = try #require(listed.stdoutLines.map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
            .first { $0.count > 11 && $0[11] == "2015-01-01T00:02:00Z" }, "\(listed)")
        #expect(pulledLine[1] == "" && pulledLine[2] == "matched" && pulledLine[5] == "Stockholm")
        let pulledJSON = try await sandbox.crates(["list", "--json"])
        let pulledObject = try #require(pulledJSON.stdoutLines.lazy.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.first { $0["addMethod"] as? String == "discogs" })
        #expect(pulledObject["gtin"] is NSNull && pulledObject["rating"] as? Int == 5)

        // Adding another copy of a release the Discogs collection has says so, with no request.
        let add = try await sandbox.crates(["add", "r5134861"])
        #expect(add.status == 0, "\(add)")
        #expect(add.stdoutLines.first?.hasSuffix("\tmatched\tHammerFall — Glory To The Brave (on Discogs: 1 copy)") == true, "\(add)")
    }

    @Test("edit: a bad grade or rating is refused (1), as a missing record; no flag is a usage error (64); nothing changes")
    func editRefusals() async throws {
        let sandbox = try CommandSandbox()
        let ids = try await Self.seedCopies(sandbox)
        let bad = try await sandbox.crates(["edit", String(ids[0]), "--media", "shiny"])
        #expect(bad.status == 1, "\(bad)")
        #expect(bad.stderr.contains("\"shiny\" is not a media condition: use one of Mint (M),"), "\(bad)")
        let rating = try await sandbox.crates(["edit", String(ids[0]), "--rating", "7"])
        #expect(rating.status == 1 && rating.stderr.contains("7 is not a rating"), "\(rating)")
        let nothing = try await sandbox.crates(["edit", String(ids[0])])
        #expect(nothing.status == 64 && nothing.stderr.contains("nothing to change"), "\(nothing)")
        let missing = try await sandbox.crates(["edit", "999", "--rating", "3"])
        #expect(missing.status == 1 && missing.stderr.contains("no record has id 999"), "\(missing)")
        let json = try await sandbox.crates(["list", "--json"])
        #expect(json.status == 0 && json.stdoutLines.allSatisfy { $0.contains(#""mediaCondition":null"#) && $0.contains(#""rating":0"#) })
    }

    @Test("--prefer crates settles a conflict and adds nothing back; --restore-removed adds back a copy removed on Discogs; --help says which does which")
    func preferAndRestoreRemoved() async throws {
        let (sandbox, server) = try await Self.signedIn()
        try await server.collection.seed(#"{"instances": [{"release_id": 1, "rating": 2}, {"release_id": 5134861}]}"#)
        let ids = try await Self.seedCopies(sandbox)
        #expect(try await sandbox.crates(["edit", String(ids[0]), "--rating", "4"]).status == 0)
        let first = try await sandbox.crates(["sync"])
        #expect(first.stdoutLines.first?.hasPrefix("Synced with Discogs (DamIDhagor): 0 pulled, 1 pushed, 2 linked, 0 updated, 1 conflict, 0 removed;") == true, "\(first)")
        let hammerfall = try #require(try await server.collection.dump().instances.first { $0.release_id == 5_134_861 })
        try await server.collection.change(instance: hammerfall.instance_id, remove: true)

        let dry = try await sandbox.crates(["sync", "--dry-run"])
        #expect(dry.stdoutLines.first?.contains("1 conflict, 1 removed;") == true, "\(dry)")
        let preferred = try await sandbox.crates(["sync", "--prefer", "crates"])
        #expect(preferred.status == 0, "\(preferred)")
        #expect(preferred.stdoutLines.first?.contains("0 conflicts, 1 removed;") == true, "\(preferred)")
        #expect(preferred.stdoutLines.contains { $0.hasPrefix("removed on Discogs: \(ids[1]) Artist — Glory To The Brave: kept here") && $0.hasSuffix("`crates sync --restore-removed` adds it again") },
                "\(preferred)")
        var instances = try await server.collection.dump().instances
        #expect(instances.first { $0.release_id == 1 }?.rating == 4, "the conflict went crates' way")
        #expect(instances.count == 2, "the removed copy is not added back by --prefer crates")

        let restored = try await sandbox.crates(["sync", "--restore-removed"])
        #expect(restored.status == 0, "\(restored)")
        #expect(restored.stdoutLines.first?.hasPrefix("Synced with Discogs (DamIDhagor): 0 pulled, 1 pushed, 0 linked, 0 updated, 0 conflicts, 0 removed;") == true, "\(restored)")
        instances = try await server.collection.dump().instances
        #expect(instances.map(\.release_id).sorted() == [1, 5_134_861, 10_507_194])

        let pull = try await sandbox.crates(["sync", "--pull", "--restore-removed"])
        #expect(pull.status == 64 && pull.stderr.contains("--restore-removed adds copies to Discogs, which --pull never changes"), "\(pull)")
        let help = try await sandbox.crates(["sync", "--help"])
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("--restore-removed Add back to Discogs the copies removed there (listed as \"removed on Discogs\"). Settles no conflict."), "\(help.stdout)")
        #expect(text.contains("Settle conflicts (values changed differently on both sides): take Discogs' value, or send crates' (discogs or crates). Adds no copy."), "\(help.stdout)")
    }

    @Test("exit statuses: 3 not signed in, 4 unreachable, 64 contradicting flags; --dry-run writes nothing")
    func statuses() async throws {
        let unsigned = try CommandSandbox()
        let notSignedIn = try await unsigned.crates(["sync"])
        #expect(notSignedIn.status == 3 && notSignedIn.stderr.contains("not signed in to Discogs"), "\(notSignedIn)")
        #expect(notSignedIn.stdout.isEmpty, "no summary of a sync that never began: \(notSignedIn)")
        let both = try await unsigned.crates(["sync", "--pull", "--push"])
        #expect(both.status == 64, "\(both)")
        let prefer = try await unsigned.crates(["sync", "--prefer", "mine"])
        #expect(prefer.status == 64 && prefer.stderr.contains("--prefer takes discogs or crates"), "\(prefer)")
        let noFolder = try await unsigned.crates(["sync", "--folder", " "])
        #expect(noFolder.status == 64 && noFolder.stderr.contains("--folder needs a Discogs folder's id or name"), "\(noFolder)")

        let (sandbox, server) = try await Self.signedIn()
        _ = try await Self.seedCopies(sandbox)
        let dry = try await sandbox.crates(["sync", "--dry-run"])
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.stdoutLines.first?.hasPrefix("Dry run, nothing written: Discogs (DamIDhagor) would give 0 pulled, 3 pushed") == true, "\(dry)")
        #expect(dry.stdoutLines.filter { $0.hasPrefix("would add to Discogs: ") }.count == 3)
        #expect(try await server.collection.stats().writes == 0)

        await server.stop()
        let offline = try await sandbox.crates(["sync"])
        #expect(offline.status == 4, "\(offline)")
        #expect(offline.stderr.contains("crates sync: Discogs is unreachable"), "\(offline)")
    }
}
