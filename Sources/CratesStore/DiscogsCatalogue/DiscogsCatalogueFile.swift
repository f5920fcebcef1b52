import CratesCore
import Foundation
import GRDB
import Synchronization

/// A catalogue file built from Discogs' releases dump (`DiscogsCatalogueBuilder`), opened
/// read-only: barcode, catalogue-number and artist/title questions answered locally.
public final class DiscogsCatalogueFile: ReleaseCatalogue {
    public let path: String
    public let summary: CatalogueSummary
    public var edition: CatalogueEdition { summary.edition }
    /// Readers, so that questions asked at once (the search as one types, the lookup
    /// worker's pass, a check) are answered side by side rather than one behind another.
    private let readers: DatabasePool
    /// Term and label strings already read (they repeat across releases).
    private let names = Mutex<(terms: [Int: String], labels: [Int: String])>(([:], [:]))

    /// Opens the catalogue at `path`; `.none` when there is none, `.unreadable` when it is no
    /// regular file (checked before opening: a FIFO would wait for ever), `.untrusted` when
    /// another user could have written it (`CatalogueFileSafety.checkTrusted`).
    public init(path: String) throws(CatalogueFileError) {
        self.path = path
        try CatalogueFileSafety.checkTrusted(path)
        var configuration = Configuration()
        configuration.label = "crates.catalogue"
        configuration.readonly = true
        do {
            readers = try DatabasePool(path: path, configuration: configuration)
            let meta = try readers.read { db -> [String: String] in
                var meta: [String: String] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT key, value FROM meta") {
                    let key: String = row[0]
                    let value: String = row[1]
                    meta[key] = value
                }
                return meta
            }
            guard meta["format"] == CatalogueSchema.format, let date = meta["date"] else {
                throw CatalogueFileError.unreadable(path: path, reason: "it is not a catalogue of this version of crates; build it again")
            }
            summary = CatalogueSummary(
                path: path, edition: CatalogueEdition(dumpDate: date), releases: Int(meta["releases"] ?? "") ?? 0,
                barcodes: Int(meta["barcodes"] ?? "") ?? 0, bytes: DiscogsCatalogueBuilder.size(of: path),
                builtAt: meta["builtAt"].flatMap(CatalogueSummary.date) ?? Date(timeIntervalSince1970: 0),
                seconds: Double(meta["seconds"] ?? "") ?? 0, skipped: Int(meta["skipped"] ?? "") ?? 0,
                skippedReleases: (meta["skippedReleases"] ?? "").split(separator: "\n").map(String.init))
        } catch let error as CatalogueFileError {
            throw error
        } catch let error as DatabaseError {
            throw .unreadable(path: path, reason: CatalogueFileError.readingWords(sqliteCode: error.extendedResultCode.rawValue))
        } catch {
            throw .unreadable(path: path, reason: "it cannot be read")
        }
    }

    /// Removes the catalogue at `path`; `.none` when there is none, and nothing removed when
    /// what is there is not a catalogue crates built (`CatalogueFileSafety.checkRemovable`:
    /// the collection at `collection`, a note, a directory). A build under way is not
    /// disturbed (its file becomes the catalogue when it completes).
    public static func remove(path: String, sparing collection: String?) throws(CatalogueFileError) {
        try CatalogueFileSafety.checkRemovable(path, sparing: collection)
        guard unlink(path) == 0 else {
            if errno == ENOENT { throw .none(path: path) }
            throw .cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
    }

    // MARK: - ReleaseCatalogue

    private static let columns = "r.id, r.artist, r.title, r.labels, r.facets, r.released, r.master, r.main"

    public func blockingReleases(barcode: GTIN) throws(ReleaseCatalogueError) -> [Release] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.columns) FROM barcode b JOIN release r ON r.id = b.release WHERE b.gtin = ? ORDER BY b.release",
                arguments: [Int64(bitPattern: barcode.gtin14Value)]
            ).map { try self.release(from: $0, db) }
        }
    }

    public func blockingRelease(id: Int) throws(ReleaseCatalogueError) -> Release? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.columns) FROM release r WHERE r.id = ?", arguments: [id])
                .map { try self.release(from: $0, db) }
        }
    }

    public func blockingSearch(_ query: ReleaseSearchQuery, limit: Int) throws(ReleaseCatalogueError) -> [Release] {
        guard limit > 0 else { return [] }
        let wanted = CatalogueSearchMatch(query: query)
        let cap = max(limit * 20, 500)
        return try read { db in
            var ids: [Int64]
            if let catno = query.catno {
                let key = CatalogueNumber.key(catno)
                ids = try Int64.fetchAll(db, sql: "SELECT release FROM catno WHERE key = ? ORDER BY release LIMIT ?", arguments: [key, cap])
            } else if let match = wanted.fullTextQuery {
                ids = try Int64.fetchAll(
                    db, sql: "SELECT rowid FROM release_text WHERE release_text MATCH ? ORDER BY rowid LIMIT ?", arguments: [match, cap])
            } else {
                ids = []
            }
            var found: [(release: Release, score: CatalogueSearchMatch.Score)] = []
            for id in ids {
                guard let row = try Row.fetchOne(db, sql: "SELECT \(Self.columns) FROM release r WHERE r.id = ?", arguments: [id]) else { continue }
                let release = try self.release(from: row, db)
                if let score = wanted.score(release) { found.append((release, score)) }
            }
            return found.enumerated().sorted { a, b in
                if a.element.score != b.element.score { return a.element.score > b.element.score }
                return a.offset < b.offset
            }.prefix(limit).map(\.element.release)
        }
    }

    // MARK: - Rows

    private func read<T>(_ body: (Database) throws -> T) throws(ReleaseCatalogueError) -> T {
        do {
            return try readers.read(body)
        } catch let error as DatabaseError {
            throw .unreadable(path: path, reason: CatalogueFileError.readingWords(sqliteCode: error.extendedResultCode.rawValue))
        } catch {
            throw .unreadable(path: path, reason: "it cannot be read")
        }
    }

    private func release(from row: Row, _ db: Database) throws -> Release {
        let id: Int = row[0]
        let credit: String = row[1]
        let title: String = row[2]
        let labelText: String = row[3]
        let facetBytes: Data = row[4]
        let released: Int? = row[5]
        let master: Int? = row[6]
        let isMain: Bool = row[7]
        let facets = CatalogueFacets([UInt8](facetBytes)) ?? CatalogueFacets()
        let genres = try facets.genres.map { try term($0, db) }
        let styles = try facets.styles.map { try term($0, db) }
        let formats = try facets.formats.map { try term($0, db) }
        let country = facets.country > 0 ? try term(facets.country, db) : nil
        var labels: [Release.LabelCredit] = []
        var rawLabels: [(name: String, catno: String, id: Int)] = []
        let entries = labelText.isEmpty && facets.labels.isEmpty ? [] : labelText.split(separator: "\u{1E}", omittingEmptySubsequences: false)
        for (index, labelID) in facets.labels.enumerated() {
            let entry = index < entries.count ? entries[index] : ""
            let parts = entry.split(separator: "\u{1F}", maxSplits: 1, omittingEmptySubsequences: false)
            let catno = String(parts.first ?? "")
            let name = labelID > 0 ? try labelName(labelID, db) : (parts.count > 1 ? String(parts[1]) : "")
            rawLabels.append((name, catno, labelID))
            labels.append(Release.LabelCredit(name: DiscogsName.display(name), catno: catno.isEmpty ? nil : catno))
        }
        let year = released.flatMap { $0 / 10_000 > 0 ? $0 / 10_000 : nil }
        let json = Self.json(
            id: id, credit: credit, title: title, labels: rawLabels, formats: formats, genres: genres, styles: styles,
            country: country, released: released, master: master, isMain: isMain, edition: edition)
        return Release(
            id: id, artist: DiscogsName.displayCredit(credit), title: title, genres: genres, styles: styles, formats: formats,
            year: year, country: country, labels: labels, url: "https://www.discogs.com/release/\(id)", thumbURL: nil,
            rawJSON: json, hasFullDetails: false)
    }

    private func term(_ id: Int, _ db: Database) throws -> String {
        if let text = names.withLock({ $0.terms[id] }) { return text }
        let text = try String.fetchOne(db, sql: "SELECT text FROM term WHERE id = ?", arguments: [id]) ?? ""
        names.withLock { $0.terms[id] = text }
        return text
    }

    private func labelName(_ id: Int, _ db: Database) throws -> String {
        if let name = names.withLock({ $0.labels[id] }) { return name }
        let name = try String.fetchOne(db, sql: "SELECT name FROM label WHERE id = ?", arguments: [id]) ?? ""
        names.withLock { state in
            if state.labels.count > 50_000 { state.labels.removeAll() }
            state.labels[id] = name
        }
        return name
    }

    /// What the dump said, in the shape of Discogs' release JSON where a field has one,
    /// marked `"source": "catalogue"` with the dump's date.
    static func json(
        id: Int, credit: String, title: String, labels: [(name: String, catno: String, id: Int)], formats: [String],
        genres: [String], styles: [String], country: String?, released: Int?, master: Int?, isMain: Bool, edition: CatalogueEdition
    ) -> String {
        let q = JSONStringLiteral.quoted
        var parts = ["\"id\":\(id)", "\"title\":\(q(title))", "\"artists_sort\":\(q(credit))"]
        parts.append("\"labels\":[" + labels.map { "{\"name\":\(q($0.name)),\"catno\":\(q($0.catno)),\"id\":\($0.id)}" }.joined(separator: ",") + "]")
        parts.append("\"formats\":[" + formats.map(q).joined(separator: ",") + "]")
        parts.append("\"genres\":[" + genres.map(q).joined(separator: ",") + "]")
        parts.append("\"styles\":[" + styles.map(q).joined(separator: ",") + "]")
        if let country { parts.append("\"country\":\(q(country))") }
        if let released {
            let year = released / 10_000, month = released / 100 % 100, day = released % 100
            parts.append("\"released\":\(q(String(format: "%04d-%02d-%02d", year, month, day)))")
            if year > 0 { parts.append("\"year\":\(year)") }
        }
        if let master { parts.append("\"master_id\":\(master)") }
        parts.append("\"is_main_release\":\(isMain)")
        parts.append("\"source\":\"catalogue\"")
        parts.append("\"dump_date\":\(q(edition.dumpDate))")
        return "{" + parts.joined(separator: ",") + "}"
    }
}
