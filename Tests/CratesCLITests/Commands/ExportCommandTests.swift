import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// `crates export`: Discogs' CSV columns plus Barcode, JSON, written atomically.
@Suite("crates export (process)", .processTimeLimit)
struct ExportCommandTests {
    /// A release whose texts hold commas, double quotes and a line break; two copies of it (one
    /// with a note and a location), and a copy not matched.
    static func seedAwkward(_ store: CollectionStore) async throws {
        let release = Seed.release(
            249_504, artist: "Crosby, Stills & Nash", title: "\"Déjà\" Vu,\nLive", genre: "Folk, World, & Country",
            labels: [.init(name: "Atlantic", catno: "SD 7200"), .init(name: "Rhino, Inc.", catno: "R2 1")],
            formats: ["Vinyl, LP, Album", "CD, Album"], year: 1970)
        _ = try await store.add(NewRecord(
            gtin: Fixtures.gtin(1), addedAt: Seed.addedAt, addMethod: .wedge, note: "signed, \"mint\"\nsleeve worn",
            location: "Crate 3", release: release))
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addedAt: Seed.addedAt.addingTimeInterval(1), addMethod: .typed, release: release))
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(2), addedAt: Seed.addedAt.addingTimeInterval(2), addMethod: .typed))
    }

    static let header = "Catalog#,Artist,Title,Label,Format,Rating,Released,release_id,CollectionFolder,Date Added,"
        + "Collection Media Condition,Collection Sleeve Condition,Collection Notes,Barcode,Location,Collector Fields,"
        + "Genre,Country,Entered By Hand,Purchase Price,Purchase Currency,Purchase Date,Bought From,Lent To,Lent On,Returned On,"
        + "Location Codes"

    /// An empty collection's JSON export: the header (with what each section holds), empty
    /// sections, and the SHA-256 of the lines between (`sha256sum` of them, by hand).
    static let emptyJSON = """
        {"crates":{"complete":true,"counts":{"discogsAccount":0,"discogsCopy":0,"discogsFolder":0,"discogsOutbox":0,"places":0,"records":0},"format":"crates collection","sequences":{"location":0,"record":0},"version":3},
        "places":[
        ],
        "discogsAccount":[
        ],
        "discogsFolder":[
        ],
        "discogsCopy":[
        ],
        "discogsOutbox":[
        ],
        "records":[
        ],
        "digest":"sha256:7e199f48363d96724b269277755af5c0bf2ceba4ba3f80945ed9366705871138"}

        """

    static var awkwardCSV: String {
        let release = #""SD 7200, R2 1","Crosby, Stills & Nash","""Déjà"" Vu,"# + "\n" + #"Live","Atlantic, Rhino, Inc.","#
            + #""Vinyl, LP, Album + CD, Album",,1970,249504,"#
        return header + "\n"
            + release + #"Crate 3,2024-01-31 12:34:56,,,"signed, ""mint"""# + "\n" + #"sleeve worn",\#(Fixtures.gtin(1).canonical),Crate 3,,"Folk, World, & Country",UK,,,,,,,,,2900000000018"# + "\n"
            + release + #",2024-01-31 12:34:57,,,,\#(Fixtures.gtin(1).canonical),,,"Folk, World, & Country",UK,,,,,,,,,"# + "\n"
            + ",,,,,,,,,2024-01-31 12:34:58,,,,\(Fixtures.gtin(2).canonical),,,,,,,,,,,,,\n"
    }

    @Test("CSV: Discogs' columns plus Barcode, one row per copy, RFC 4180 quoting, LF rows")
    func csv() async throws {
        let sandbox = try CommandSandbox()
        try await Self.seedAwkward(try sandbox.openStore())
        let file = sandbox.directory.appendingPathComponent("collection.csv").path
        let result = try await sandbox.crates(["export", "--csv", file])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written == Self.awkwardCSV)
        // Nothing left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).filter { $0.contains("partial") } == [])
    }

    @Test("CSV to standard output with -, and CRLF rows with --crlf")
    func csvStdoutCRLF() async throws {
        let sandbox = try CommandSandbox()
        try await Self.seedAwkward(try sandbox.openStore())
        let lf = try await sandbox.crates(["export", "--csv", "-"])
        #expect(lf.status == 0, "\(lf)")
        #expect(lf.stdout == Self.awkwardCSV)
        let crlf = try await sandbox.crates(["export", "--csv", "-", "--crlf"])
        #expect(crlf.status == 0, "\(crlf)")
        // Rows end CRLF; the line breaks inside quoted fields stay as they are in the text.
        #expect(crlf.stdout.hasPrefix(Self.header + "\r\n"))
        #expect(crlf.stdout.hasSuffix(",,,,\(Fixtures.gtin(2).canonical),,,,,,,,,,,,,\r\n"))
        #expect(crlf.stdout.contains(#"Vu,"# + "\n" + "Live"))
    }

    @Test("an empty collection: the header alone; JSON: the header and empty sections")
    func empty() async throws {
        let sandbox = try CommandSandbox()
        let csv = try await sandbox.crates(["export", "--csv", "-"])
        #expect(csv.status == 0 && csv.stdout == Self.header + "\n", "\(csv)")
        let json = try await sandbox.crates(["export", "--json", "-"])
        #expect(json.status == 0 && json.stdout == Self.emptyJSON, "\(json)")
    }

    @Test("--genre and --state select the rows")
    func filtered() async throws {
        let sandbox = try CommandSandbox()
        try await Self.seedAwkward(try sandbox.openStore())
        let unknown = try await sandbox.crates(["export", "--csv", "-", "--state", "pending"])
        #expect(unknown.status == 0, "\(unknown)")
        #expect(unknown.stdout == Self.header + "\n,,,,,,,,,2024-01-31 12:34:58,,,,\(Fixtures.gtin(2).canonical),,,,,,,,,,,,,\n", "\(unknown)")
        let folk = try await sandbox.crates(["export", "--csv", "-", "--genre", "folk, world, & country"])
        #expect(folk.status == 0, "\(folk)")
        #expect(folk.stdout.components(separatedBy: "249504").count == 3, "\(folk)")
    }

    @Test("JSON: one object, one record per line in its records, with the release, Discogs' JSON and the history")
    func json() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        try await Self.seedAwkward(store)
        try await store.retry([3])  // one history entry for the unmatched copy
        let file = sandbox.directory.appendingPathComponent("collection.json").path
        let result = try await sandbox.crates(["export", "--json", file])
        #expect(result.status == 0, "\(result)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.hasPrefix(#"{"crates":{"complete":true,"#) && text.contains("}\n],\n\"digest\":\"sha256:") && text.hasSuffix("\"}\n"))
        // The header, the places' two lines and Crate 3, four empty sections, records: its two
        // lines and 3 records, and the digest.
        #expect(text.split(separator: "\n").count == 18)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect((document["places"] as? [Any])?.count == 1, "Crate 3")
        let array = try #require(document["records"] as? [[String: Any]])
        #expect(array.compactMap { ($0["id"] as? NSNumber)?.intValue } == [1, 2, 3])
        let first = try #require(array.first)
        #expect(first["note"] as? String == "signed, \"mint\"\nsleeve worn")
        #expect((first["location"] as? [String: Any])?["path"] as? String == "Crate 3")
        #expect(first["addMethod"] as? String == "wedge")
        #expect(first["addedAt"] as? String == "2024-01-31T12:34:56Z")
        let release = try #require(first["release"] as? [String: Any])
        #expect(release["title"] as? String == "\"Déjà\" Vu,\nLive")
        #expect(release["formats"] as? [String] == ["Vinyl, LP, Album", "CD, Album"])
        #expect((release["discogs"] as? [String: Any])?["title"] as? String == "raw 249504")
        #expect(first["history"] as? [Any] != nil)
        let last = try #require(array.last)
        #expect(last["release"] is NSNull)
        #expect(last["state"] as? String == "pending")
        #expect((last["history"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["retryRequested"])
    }

    @Test("a file that cannot be written: exit 1 with the reason, nothing created")
    func unwritable() async throws {
        let sandbox = try CommandSandbox()
        let missing = sandbox.directory.appendingPathComponent("no/such/dir/out.csv").path
        let result = try await sandbox.crates(["export", "--csv", missing])
        #expect(result.status == 1, "\(result)")
        // Checked before the collection is opened (issue 12).
        #expect(result.stderr.contains("cannot write \(missing): there is no directory"), "\(result)")
        let directory = try await sandbox.crates(["export", "--json", sandbox.directory.path])
        #expect(directory.status == 1, "\(directory)")
        #expect(directory.stderr.contains("it is a directory"), "\(directory)")
    }

    @Test("usage: exactly one of --csv and --json")
    func usage() async throws {
        let sandbox = try CommandSandbox()
        for arguments in [["export"], ["export", "--csv", "-", "--json", "-"], ["export", "--json", "-", "--crlf"]] {
            let result = try await sandbox.crates(arguments)
            #expect(result.status == 64, "\(result)")
        }
    }

    @Test("an export stopped half-way leaves the previous file whole and no temporary file behind", .offThePool)
    func interrupted() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        let release = Seed.release(7, artist: "A", title: "T", genre: "Rock")
        _ = try await store.addAll((0..<40_000).map {
            NewRecord(gtin: Fixtures.gtin(1_000 + $0), addedAt: Seed.addedAt, addMethod: .import, release: $0 % 2 == 0 ? release : nil)
        })
        let file = sandbox.directory.appendingPathComponent("big.json").path
        let previous = "the previous export\n"
        try previous.write(toFile: file, atomically: true, encoding: .utf8)
        // Caught half-way: its temporary file has content and is not yet renamed over the
        // file, and the export is stopped (SIGSTOP) there, so it stays half-way while the test
        // checks. (Should it finish between the look and the stop, on a fast machine, that
        // run proves nothing and the test tries again.)
        func partial() -> String? {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path)) ?? []
            return names.first { $0.hasPrefix(".big.json.partial-") }.map { sandbox.directory.appendingPathComponent($0).path }
        }
        func stopped(_ pid: pid_t) -> Bool {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            return stat.split(separator: ")").last?.split(separator: " ").first == "T"
        }
        var caught: ChildProcess?
        for _ in 0..<5 where caught == nil {
            try previous.write(toFile: file, atomically: true, encoding: .utf8)
            let export = try ProcessRunner.startCrates(["export", "--json", file], environment: sandbox.environment, deadline: .seconds(120))
            let halfWay = try await waitFor("the export half-way, or done", every: .milliseconds(2)) { () -> Bool? in
                if let temporary = partial(), ((try? FileManager.default.attributesOfItem(atPath: temporary)[.size] as? Int) ?? 0) > 0 {
                    export.signal(SIGSTOP)
                    try await waitUntil("the export stopped", every: .milliseconds(2)) { stopped(export.pid) }
                    return partial() != nil
                }
                return export.hasExited ? false : nil
            }
            if halfWay {
                caught = export
            } else {
                export.signal(SIGCONT)
                let finished = await export.result()
                #expect(finished.status == 0, "\(finished)")
            }
        }
        let export = try #require(caught, "the export was never caught half-way in five runs")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == previous, "not replaced while half-way")
        export.signal(SIGTERM)
        export.signal(SIGCONT)
        let result = await export.result()
        #expect(result.status == 128 + SIGTERM && !result.signalled, "\(result)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == previous)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).filter { $0.contains("partial") } == [])
    }
}
