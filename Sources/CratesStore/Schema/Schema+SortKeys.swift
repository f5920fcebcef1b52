import CratesCore
import GRDB

/// The keys of the list's orders other than by title ("v14 sort keys"; see `ListOrder`).
///
/// Each order is one text column beside `rowKey` (the title order's key) with an index on
/// (sectionKey, key), so that a window of any order is an index walk, as the title order's
/// is, and `crates list` pages by key in every order:
///
/// - `artistKey`: the artist as filed (a leading article dropped: `ListOrder.articles`), the
///   year, the title, the GTIN;
/// - `yearKey`: the year, then `artistKey`;
/// - `labelKey`: the first label and its catalogue number (lower case), then `artistKey`;
/// - `placeKey`: the place's `location.pathKey`, then `artistKey`;
/// - the added order needs no key: (sectionKey, addedAt) is indexed.
///
/// The parts are joined with U+0001, as `SortKey` joins `rowKey`'s. The year is four digits,
/// "0000" when unknown (unknown first, as unmatched records come first).
///
/// SQLite triggers compute them, from `rowKey` (title and artist, folded already by
/// `SortKey`), the year, label and catalogue number shown (the collector's where set, else
/// the release's) and the place, whatever writes a record (an add, an import, a lookup, an
/// edit, an undo, a sync, a restore, a move) or its release or place: a write path cannot
/// forget them. Labels are lower-cased by SQLite (ASCII only); a label with accents sorts by
/// its accented letters. `location.pathKey` is computed in Swift (`refreshPlaceKeys`) after
/// every change of places: a path is a walk up the tree, which a trigger cannot do.
extension Schema {
    /// The sort key columns for the record row `row` (a name or alias of `record`), as
    /// `column = expression` pairs for an UPDATE of it.
    static func sortKeyAssignments(row r: String) -> String {
        let rowKey = "\(r).rowKey"
        let firstSeparator = "instr(\(rowKey), char(1))"
        let title = "substr(\(rowKey), 1, \(firstSeparator) - 1)"
        let rest = "substr(\(rowKey), \(firstSeparator) + 1)"
        let artist = "substr(\(rest), 1, instr(\(rest), char(1)) - 1)"
        let gtin = "substr(\(rest), instr(\(rest), char(1)) + 1)"
        let filed = "CASE " + ListOrder.articles.map { article in
            "WHEN substr(\(artist), 1, \(article.count + 1)) = '\(article) ' AND length(\(artist)) > \(article.count + 1) "
                + "THEN substr(\(artist), \(article.count + 2)) "
        }.joined() + "ELSE \(artist) END"
        let year = "coalesce(\(r).ownYear, (SELECT year FROM release WHERE id = \(r).releaseID))"
        let yearText = "CASE WHEN \(year) BETWEEN 1 AND 9999 THEN printf('%04d', \(year)) ELSE '0000' END"
        let artistKey = "\(filed) || char(1) || \(yearText) || char(1) || \(title) || char(1) || \(gtin)"
        let label = { (field: String, own: String) in
            "lower(coalesce(\(r).\(own), (SELECT json_extract(labelsJSON, '$[0].\(field)') FROM release WHERE id = \(r).releaseID), ''))"
        }
        let place = "coalesce((SELECT pathKey FROM location WHERE id = \(r).locationID), '')"
        return """
            artistKey = \(artistKey),
            yearKey = \(yearText) || char(1) || \(artistKey),
            labelKey = \(label("name", "ownLabel")) || char(1) || \(label("catno", "ownCatno")) || char(1) || \(artistKey),
            placeKey = \(place) || char(1) || \(artistKey)
            """
    }

    /// The sort keys of one row, from a trigger's `NEW` (an insert, or a change of the row):
    /// each part computed once, in nested subqueries that `OFFSET 0` keeps SQLite from
    /// flattening (flattening would put the expressions back in as many times as they are
    /// used). `sortKeyAssignments` repeats them: the per-row triggers run on every insert,
    /// where that cost 125 µs a record (12.5 s of CPU at 100,000 records); this costs a
    /// fraction of it.
    static func sortKeyUpdate(ofNew r: String, where condition: String? = nil) -> String {
        """
            UPDATE record SET (artistKey, yearKey, labelKey, placeKey) = (
                \(sortKeySelect { "\(r).\($0)" }))
            WHERE \(condition ?? "id = \(r).id")
            """
    }

    /// The one row (artistKey, yearKey, labelKey, placeKey) of a record whose columns
    /// `column` gives as SQL operands (`rowKey`, `ownYear`, `ownLabel`, `ownCatno`,
    /// `releaseID`, `locationID`): a trigger's `NEW.rowKey`, or values bound to a statement
    /// (`importedSortKeys`), so that every writer keys a record by this one rule.
    static func sortKeySelect(_ column: (String) -> String) -> String {
        let filed = "CASE " + ListOrder.articles.map { article in
            "WHEN substr(artist, 1, \(article.count + 1)) = '\(article) ' AND length(artist) > \(article.count + 1) "
                + "THEN substr(artist, \(article.count + 2)) "
        }.joined() + "ELSE artist END"
        let shown = """
            SELECT \(column("rowKey")) AS rk, coalesce(\(column("ownYear")), rel.year) AS yv, \(column("ownLabel")) AS ol, \(column("ownCatno")) AS oc,
                   rel.labelsJSON AS lj, (SELECT pathKey FROM location WHERE id = \(column("locationID"))) AS pk
            FROM (SELECT 1) LEFT JOIN release rel ON rel.id = \(column("releaseID"))
            """
        let parts = """
            SELECT rk, instr(rk, char(1)) AS i,
                   CASE WHEN yv BETWEEN 1 AND 9999 THEN printf('%04d', yv) ELSE '0000' END AS y,
                   lower(coalesce(ol, json_extract(lj, '$[0].name'), '')) || char(1)
                       || lower(coalesce(oc, json_extract(lj, '$[0].catno'), '')) AS l,
                   coalesce(pk, '') AS p
            FROM (\(shown) LIMIT 1 OFFSET 0)
            """
        let split = "SELECT substr(rk, 1, i - 1) AS title, substr(rk, i + 1) AS rest, y, l, p FROM (\(parts) LIMIT 1 OFFSET 0)"
        let named = """
            SELECT title, substr(rest, 1, instr(rest, char(1)) - 1) AS artist, substr(rest, instr(rest, char(1)) + 1) AS gtin,
                   y, l, p
            FROM (\(split) LIMIT 1 OFFSET 0)
            """
        let keyed = "SELECT \(filed) || char(1) || y || char(1) || title || char(1) || gtin AS a, y, l, p FROM (\(named) LIMIT 1 OFFSET 0)"
        return "SELECT a, y || char(1) || a, l || char(1) || a, p || char(1) || a FROM (\(keyed) LIMIT 1 OFFSET 0)"
    }

    /// Computes the sort keys of the records above `id` with `record_sort_added`'s own
    /// statement (`sortKeyUpdate`, its row the record updated), in one statement: for records
    /// a bulk insert of this transaction wrote with that trigger lifted
    /// (`withoutRowIndexTriggers`; ids only grow, and no other connection writes during the
    /// transaction). Not `sortKeyAssignments`, whose repeated subqueries cost several times
    /// as much a row.
    static func sortRecords(_ db: Database, above id: Int64) throws {
        try db.execute(sql: sortKeyUpdate(ofNew: "record", where: "id > ?"), arguments: [id])
    }

    static func addSortKeys(_ db: Database) throws {
        let assignments = sortKeyAssignments(row: "record")
        try db.execute(sql: """
            ALTER TABLE record ADD COLUMN artistKey TEXT NOT NULL DEFAULT '';
            ALTER TABLE record ADD COLUMN yearKey TEXT NOT NULL DEFAULT '';
            ALTER TABLE record ADD COLUMN labelKey TEXT NOT NULL DEFAULT '';
            ALTER TABLE record ADD COLUMN placeKey TEXT NOT NULL DEFAULT '';
            ALTER TABLE location ADD COLUMN pathKey TEXT NOT NULL DEFAULT '';
            """)
        try CollectionStore.refreshPlaceKeys(db)
        try db.execute(sql: """
            UPDATE record SET \(assignments);
            CREATE INDEX record_by_artist ON record(sectionKey, artistKey);
            CREATE INDEX record_by_year ON record(sectionKey, yearKey);
            CREATE INDEX record_by_added ON record(sectionKey, addedAt);
            CREATE INDEX record_by_label ON record(sectionKey, labelKey);
            CREATE INDEX record_by_place ON record(sectionKey, placeKey);

            CREATE TRIGGER record_sort_added AFTER INSERT ON record BEGIN
                \(sortKeyUpdate(ofNew: "NEW"));
            END;
            CREATE TRIGGER record_sort_changed AFTER UPDATE OF rowKey, releaseID, ownYear, ownLabel, ownCatno, locationID ON record
            WHEN OLD.rowKey IS NOT NEW.rowKey OR OLD.releaseID IS NOT NEW.releaseID OR OLD.ownYear IS NOT NEW.ownYear
                OR OLD.ownLabel IS NOT NEW.ownLabel OR OLD.ownCatno IS NOT NEW.ownCatno
                OR OLD.locationID IS NOT NEW.locationID BEGIN
                \(sortKeyUpdate(ofNew: "NEW"));
            END;
            CREATE TRIGGER release_sort_changed AFTER UPDATE OF year, labelsJSON ON release
            WHEN OLD.year IS NOT NEW.year OR OLD.labelsJSON IS NOT NEW.labelsJSON BEGIN
                UPDATE record SET \(assignments) WHERE releaseID = NEW.id;
            END;
            CREATE TRIGGER location_sort_changed AFTER UPDATE OF pathKey ON location
            WHEN OLD.pathKey IS NOT NEW.pathKey BEGIN
                UPDATE record SET \(assignments) WHERE locationID = NEW.id;
            END;
            """)
    }
}

extension CollectionStore {
    /// Sets each place's `pathKey` (see `SortKey.place`) from the tree as it is now; run
    /// after every change of places, in its transaction. A collection has tens or hundreds
    /// of places: reading them all costs less than finding those a change touched.
    static func refreshPlaceKeys(_ db: Database) throws {
        var places: [Int64: (parent: Int64?, name: String, key: String)] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, parentID, name, pathKey FROM location") {
            places[row[0]] = (row[1], row[2], row[3])
        }
        for (id, place) in places {
            var names = [place.name]
            var parent = place.parent
            // The depth bound guards against a cycle a damaged file might hold.
            while let next = parent, let above = places[next], names.count < 1000 {
                names.insert(above.name, at: 0)
                parent = above.parent
            }
            let key = SortKey.place(names)
            if key != place.key {
                try db.execute(sql: "UPDATE location SET pathKey = ? WHERE id = ?", arguments: [key, id])
            }
        }
    }
}
