import CratesCore
import CratesDump
import CratesDumpGenerator
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// A catalogue built from a generated dump answers barcodes (every form, UPC-A as EAN-13),
/// catalogue numbers (every spelling), artist and title, and release ids; a build that fails
/// leaves the catalogue in place as it was.
@Suite(.offThePool) struct CatalogueFileTests {
    static func build(dump: String, into path: String, date: String = "20250601") throws -> CatalogueSummary {
        let reader = try DumpReader(path: dump)
        let builder = try DiscogsCatalogueBuilder(path: path, edition: CatalogueEdition(dumpDate: date), neededBytes: 0)
        var skipped: [String] = []
        do {
            try reader.read(batchSize: 250) { batch in
                try builder.add(batch.releases)
                skipped += batch.skipped.map(\.description)
            }
        } catch {
            builder.abandon()
            throw error
        }
        return try builder.finish(seconds: 1, skipped: skipped, skippedCount: skipped.count, unlisted: 0)
    }

    static func generated(_ count: Int, seed: UInt64) -> [DumpRelease] {
        var generator = DumpGenerator(count: count, seed: seed, faults: true)
        var releases: [DumpRelease] = []
        while let release = generator.next() { if let release = release.expected { releases.append(release) } }
        return releases
    }

    @Test("a build, then its barcode, search and release-id reads answer from it")
    func answers() throws {
        let directory = try TemporaryDirectory()
        let dump = directory.file("discogs_20250601_releases.xml.gz")
        let generated = try DumpGenerator.write(count: 3_000, seed: 11, faults: true, to: dump)
        let path = directory.file("catalogue.sqlite")
        let summary = try Self.build(dump: dump, into: path)
        let releases = Self.generated(3_000, seed: 11)
        #expect(summary.releases == releases.count)
        #expect(summary.barcodes == generated.barcodeKeys)
        #expect(summary.skipped == 2)
        #expect(!FileManager.default.fileExists(atPath: CatalogueLocation.buildingPath(for: path)))

        let catalogue = try DiscogsCatalogueFile(path: path)
        #expect(catalogue.edition.description == "2025-06-01")
        #expect(catalogue.summary.releases == releases.count)

        // Every barcode of every release finds it, in every form it was written.
        var checked = 0
        for release in releases {
            for value in release.barcodes {
                guard let gtin = DumpBarcode.gtin(value) else { continue }
                let found = try catalogue.blockingReleases(barcode: gtin)
                #expect(found.contains { $0.id == release.id }, "barcode \(value) of release \(release.id)")
                checked += 1
            }
        }
        #expect(checked > 500)
        // A UPC-A finds what its EAN-13 finds.
        let upc = try #require(releases.lazy.flatMap(\.barcodes).first { $0.count == 12 && $0.allSatisfy(\.isNumber) })
        #expect(try catalogue.blockingReleases(barcode: GTIN(parsing: upc)) == catalogue.blockingReleases(barcode: GTIN(parsing: "0" + upc)))
        // Runout text and a wrong check digit gave no key: nothing else was indexed.
        #expect(summary.barcodes == Set(releases.flatMap { DumpBarcode.keys($0.barcodes) }).count)

        // release(id:) gives the fields as the dump had them.
        let sample = try #require(releases.first { $0.labels.count == 2 && $0.labels[0].catno != $0.labels[1].catno && $0.country != nil })
        let release = try #require(try catalogue.blockingRelease(id: sample.id))
        #expect(release.title == sample.title)
        #expect(release.artist == DiscogsName.displayCredit(sample.artistCredit))
        #expect(release.genres == sample.genres)
        #expect(release.styles == sample.styles)
        #expect(release.formats == sample.formats.map(\.summary))
        #expect(release.country == sample.country)
        #expect(release.year == sample.year)
        #expect(release.labels.map(\.catno) == sample.labels.map(\.catno))
        #expect(release.labels.first?.name == DiscogsName.display(sample.labels[0].name))
        #expect(release.hasFullDetails == false)
        #expect(release.rawJSON.contains("\"source\":\"catalogue\""))
        #expect(try catalogue.blockingRelease(id: 999_999_999) == nil)

        // Catalogue numbers in every spelling: "SK 026", "SK026", "sk-026".
        let catno = sample.labels[0].catno
        for spelling in [catno, catno.lowercased(), catno.replacingOccurrences(of: " ", with: ""), catno.replacingOccurrences(of: " ", with: "-")] {
            let found = try catalogue.blockingSearch(try ReleaseSearchQuery(catno: spelling), limit: 500)
            #expect(found.contains { $0.id == sample.id }, "\(spelling)")
        }
        // Artist and title, accents and case folded, the last word as a prefix.
        let accented = try #require(releases.first { $0.title.contains("é") || $0.title.contains("ó") })
        let folded = accented.title.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        let byTitle = try catalogue.blockingSearch(try ReleaseSearchQuery(title: folded), limit: 5_000)
        #expect(byTitle.contains { $0.id == accented.id })
        let artist = DiscogsName.displayCredit(accented.artistCredit)
        let both = try catalogue.blockingSearch(try ReleaseSearchQuery(artist: artist.uppercased(), title: accented.title), limit: 50)
        #expect(both.first.map { TextFolding.words($0.title) == TextFolding.words(accented.title) } == true)
        let typed = String(accented.title.prefix(while: { $0 != " " }).dropLast())
        if typed.count >= 2 {
            #expect(try !catalogue.blockingSearch(try ReleaseSearchQuery(text: typed), limit: 10).isEmpty)
        }
        // Narrowed by year.
        let year = try #require(sample.year)
        let narrowed = try catalogue.blockingSearch(try ReleaseSearchQuery(catno: catno, year: String(year)), limit: 50)
        #expect(narrowed.allSatisfy { $0.year == year })
        #expect(narrowed.contains { $0.id == sample.id })
    }

    @Test("a build that fails leaves the catalogue in place as it was, and no building file")
    func failedBuildKeepsCatalogue() throws {
        let directory = try TemporaryDirectory()
        let good = directory.file("discogs_20250501_releases.xml.gz")
        try DumpGenerator.write(count: 400, seed: 1, faults: false, to: good)
        let path = directory.file("catalogue.sqlite")
        let before = try Self.build(dump: good, into: path, date: "20250501")

        let cut = directory.file("discogs_20250601_releases.xml.gz")
        try DumpGenerator.write(count: 4_000, seed: 2, faults: false, to: cut)
        let data = try Data(contentsOf: URL(fileURLWithPath: cut))
        try data.prefix(data.count * 2 / 3).write(to: URL(fileURLWithPath: cut))
        #expect(throws: DumpError.self) { _ = try Self.build(dump: cut, into: path, date: "20250601") }

        let after = try DiscogsCatalogueFile(path: path)
        #expect(after.edition.dumpDate == "20250501")
        #expect(after.summary.releases == before.releases)
        #expect(!FileManager.default.fileExists(atPath: CatalogueLocation.buildingPath(for: path)))
    }

    @Test("the catalogue in place answers while a build writes its successor, and a second build is refused")
    func answersDuringBuild() throws {
        let directory = try TemporaryDirectory()
        let dump = directory.file("d.xml.gz")
        try DumpGenerator.write(count: 300, seed: 4, faults: false, to: dump)
        let path = directory.file("catalogue.sqlite")
        _ = try Self.build(dump: dump, into: path, date: "20250501")
        let old = try DiscogsCatalogueFile(path: path)

        let builder = try DiscogsCatalogueBuilder(path: path, edition: CatalogueEdition(dumpDate: "20250601"), neededBytes: 0)
        try builder.add(Self.generated(50, seed: 9))
        #expect(throws: CatalogueFileError.buildUnderWay(path: path)) {
            _ = try DiscogsCatalogueBuilder(path: path, edition: CatalogueEdition(dumpDate: "20250601"), neededBytes: 0)
        }
        #expect(try DiscogsCatalogueFile(path: path).edition.dumpDate == "20250501")
        #expect(try old.blockingRelease(id: Self.generated(1, seed: 4)[0].id) != nil)
        builder.abandon()
        #expect(!FileManager.default.fileExists(atPath: CatalogueLocation.buildingPath(for: path)))
        #expect(try DiscogsCatalogueFile(path: path).edition.dumpDate == "20250501")
    }

    @Test("more terms than the build keeps in memory, and releases listed twice: every term one number, every duplicate counted")
    func boundedBookkeeping() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("catalogue.sqlite")
        let builder = try DiscogsCatalogueBuilder(path: path, edition: CatalogueEdition(dumpDate: "20250601"), neededBytes: 0)
        // Each format text its own term, and each met again after the cache was emptied.
        let count = DiscogsCatalogueBuilder.termCacheLimit + 5_000
        func release(_ id: Int, text: Int) -> DumpRelease {
            DumpRelease(id: id, title: "T \(id)", formats: [.init(name: "Vinyl", text: "Numbered \(text)")], genres: ["Rock"])
        }
        try builder.add((1...count).map { release($0, text: $0) })
        try builder.add(((count + 1)...(count + 300)).map { release($0, text: $0 - count) })
        // 250 releases listed again.
        try builder.add((1...250).map { release($0, text: $0) })
        #expect(builder.duplicateCount == 250)
        #expect(builder.duplicates.count == 100)
        let summary = try builder.finish(seconds: 1, skipped: [], skippedCount: 0, unlisted: 0)
        #expect(summary.releases == count + 300)
        #expect(summary.skipped == 250)
        #expect(summary.skippedReleases.count == 100)

        let catalogue = try DiscogsCatalogueFile(path: path)
        for id in [1, 2, count, count + 1, count + 300] {
            let release = try await catalogue.release(id: id)
            let found = try #require(release)
            let text = id > count ? id - count : id
            #expect(found.formats == ["Vinyl, Numbered \(text)"], "release \(id): \(found.formats)")
        }
        // One number a term: the terms table holds each text once (and "Rock").
        let terms = try await ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), arguments: ["sqlite3", path, "SELECT count(*) FROM term"])
        #expect(terms.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(count + 1)", "\(terms)")
    }

    @Test("not enough free space is said before anything is written")
    func noSpace() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("catalogue.sqlite")
        #expect {
            _ = try DiscogsCatalogueBuilder(path: path, edition: CatalogueEdition(dumpDate: "20250601"), neededBytes: Int64.max / 2)
        } throws: { error in
            guard let error = error as? CatalogueFileError, case .noSpace = error else { return false }
            return error.description.contains("it needs about")
        }
        #expect(!FileManager.default.fileExists(atPath: CatalogueLocation.buildingPath(for: path)))
    }

    @Test("no catalogue, or a file that is none, is said")
    func missing() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: CatalogueFileError.none(path: directory.file("none.sqlite"))) {
            _ = try DiscogsCatalogueFile(path: directory.file("none.sqlite"))
        }
        try "not sqlite".write(toFile: directory.file("x.sqlite"), atomically: false, encoding: .utf8)
        #expect(throws: CatalogueFileError.self) { _ = try DiscogsCatalogueFile(path: directory.file("x.sqlite")) }
    }
}
