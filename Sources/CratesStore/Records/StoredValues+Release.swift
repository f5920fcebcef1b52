import CratesCore
import Foundation
import GRDB

extension StoredValues {
    /// The columns of `release` that `release(from:)` reads, in order (then
    /// `releaseJSON.rawJSON`).
    static let releaseColumns = """
        id, artist, title, genresJSON, stylesJSON, formatsJSON, year, country, labelsJSON, url, \
        thumbURL
        """

    static func release(from row: Row) throws -> Release {
        let id = try row.decode(Int.self, atIndex: 0)
        // `StoredJSONList` first: JSONDecoder only for what it does not read (it says why).
        func list(_ index: Int, _ column: StaticString) throws -> [String] {
            let text = try row.decode(String.self, atIndex: index)
            return try StoredJSONList.strings(text) ?? decodeJSON([String].self, text, recordID: nil, column: "release \(id) \(column)")
        }
        func labels(_ index: Int) throws -> [Release.LabelCredit] {
            let text = try row.decode(String.self, atIndex: index)
            return try StoredJSONList.labels(text)
                ?? decodeJSON([Release.LabelCredit].self, text, recordID: nil, column: "release \(id) labelsJSON")
        }
        return Release(
            id: id,
            artist: try row.decode(String.self, atIndex: 1),
            title: try row.decode(String.self, atIndex: 2),
            genres: try list(3, "genresJSON"),
            styles: try list(4, "stylesJSON"),
            formats: try list(5, "formatsJSON"),
            year: try row.decode(Int?.self, atIndex: 6),
            country: try row.decode(String?.self, atIndex: 7),
            labels: try labels(8),
            url: try row.decode(String?.self, atIndex: 9),
            thumbURL: try row.decode(String?.self, atIndex: 10),
            rawJSON: try row.decode(String?.self, atIndex: 11) ?? "{}",
            hasFullDetails: row.count > 12 ? try row.decode(Bool.self, atIndex: 12) : true)
    }

    static func fetchRelease(_ db: Database, id: Int) throws -> Release? {
        try Row.fetchOne(
            db,
            sql: """
                SELECT r.id, r.artist, r.title, r.genresJSON, r.stylesJSON, r.formatsJSON, r.year,
                       r.country, r.labelsJSON, r.url, r.thumbURL, j.rawJSON, r.hasFullDetails
                FROM release r LEFT JOIN releaseJSON j ON j.id = r.id
                WHERE r.id = ?
                """,
            arguments: [id]
        ).map(release(from:))
    }

    /// What the list's filter searches in a release: artist, title, label names and
    /// catalogue numbers, folded as sort keys are (case, accents, width), space-separated.
    static func searchText(artist: String, title: String, labels: [Release.LabelCredit]) -> String {
        var parts = [artist, title]
        for label in labels {
            parts.append(label.name)
            if let catno = label.catno { parts.append(catno) }
        }
        return SortKey.fold(parts.joined(separator: " "))
    }

    /// Inserts or replaces what is known of `release`, and re-keys the records that already
    /// point at it (its title or first genre may have changed since). Returns the release as
    /// stored: a release completed from a search result never replaces one fetched in full
    /// (its tracklist, credits and notes would be lost), which is then returned instead.
    @discardableResult
    static func upsertRelease(_ db: Database, _ release: Release, now: Date) throws -> Release {
        if !release.hasFullDetails,
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT hasFullDetails FROM release WHERE id = ?"), arguments: [release.id]) == true,
            let stored = try fetchRelease(db, id: release.id)
        {
            return stored
        }
        try db.cachedStatement(sql: """
            INSERT INTO release (\(releaseColumns), formatSummary, fetchedAt, hasFullDetails)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET
                artist = excluded.artist, title = excluded.title, genresJSON = excluded.genresJSON,
                stylesJSON = excluded.stylesJSON, formatsJSON = excluded.formatsJSON,
                year = excluded.year, country = excluded.country, labelsJSON = excluded.labelsJSON,
                url = excluded.url, thumbURL = excluded.thumbURL,
                formatSummary = excluded.formatSummary, fetchedAt = excluded.fetchedAt,
                hasFullDetails = excluded.hasFullDetails
            """).execute(arguments: [
                release.id, release.artist, release.title, try json(release.genres), try json(release.styles),
                try json(release.formats), release.year, release.country, try json(release.labels),
                release.url, release.thumbURL,
                release.formats.isEmpty ? nil : release.formats.joined(separator: " + "), seconds(now),
                release.hasFullDetails,
            ])
        try db.cachedStatement(sql: "UPDATE release SET searchText = ? WHERE id = ?").execute(arguments: [
            searchText(artist: release.artist, title: release.title, labels: release.labels), release.id,
        ])
        try db.cachedStatement(sql: """
            INSERT INTO releaseJSON (id, rawJSON) VALUES (?, ?)
            ON CONFLICT(id) DO UPDATE SET rawJSON = excluded.rawJSON
            """).execute(arguments: [release.id, release.rawJSON])
        if release.hasFullDetails { try storeMarketplaceFigures(db, release, now: now) }
        let keys = RecordKeys(release: release, gtin: "")
        // Records whose collector's genre, title or artist decide their keys are keyed one
        // by one; the others all take the release's.
        try db.cachedStatement(sql: """
            UPDATE record SET sectionKey = ?, rowKey = ? || coalesce(gtin, '')
            WHERE releaseID = ? AND (sectionKey != ? OR rowKey != ? || coalesce(gtin, ''))
              AND ownGenre IS NULL AND ownTitle IS NULL AND ownArtist IS NULL
            """).execute(arguments: [keys.section, keys.rowPrefix, release.id, keys.section, keys.rowPrefix])
        let own = try Int64.fetchAll(db.cachedStatement(sql: """
            SELECT id FROM record
            WHERE releaseID = ? AND (ownGenre IS NOT NULL OR ownTitle IS NOT NULL OR ownArtist IS NOT NULL)
            """), arguments: [release.id])
        for id in own { try rekey(db, recordID: id) }
        return release
    }

    /// A full release carries its marketplace figures (`lowest_price`, in the account's
    /// currency, and `num_for_sale`): kept as the day's `releasePrice` row, with its currency
    /// unknown (''), unless `crates value` asked that day already (its figures say their
    /// currency, and stay). A figure that is none (`MarketplaceFigure`: a negative price or
    /// count, a price of a billion or more) is left out, as if the release did not carry it.
    static func storeMarketplaceFigures(_ db: Database, _ release: Release, now: Date) throws {
        // Releases from the data dump or a search result carry neither: no statement for them.
        guard release.rawJSON.contains("\"lowest_price\"") || release.rawJSON.contains("\"num_for_sale\"") else { return }
        try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO releasePrice (releaseID, day, currency, lowestPrice, numForSale, source, at)
            SELECT ?1, ?2, '', price, count, 'release', ?4 FROM (
                SELECT CASE WHEN json_type(?3, '$.lowest_price') IN ('integer', 'real')
                             AND json_extract(?3, '$.lowest_price') >= 0 AND json_extract(?3, '$.lowest_price') < ?5
                            THEN CAST(json_extract(?3, '$.lowest_price') AS REAL) END AS price,
                       CASE WHEN json_type(?3, '$.num_for_sale') = 'integer'
                             AND json_extract(?3, '$.num_for_sale') BETWEEN 0 AND ?6
                            THEN json_extract(?3, '$.num_for_sale') END AS count
                WHERE json_valid(?3))
            WHERE price IS NOT NULL OR count IS NOT NULL
            """).execute(arguments: [
                release.id, CollectionStore.observationDay(now), release.rawJSON, seconds(now),
                MarketplaceFigure.priceLimit, MarketplaceFigure.countLimit,
            ])
    }
}
