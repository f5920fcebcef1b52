import CratesCore
import Foundation
import GRDB

/// What the collection knows about releases a check names, read in one snapshot: nothing
/// is written, so a check at a fair leaves the file as it was.
extension CollectionStore {
    /// The collection's side of a check.
    public struct CheckFacts: Sendable {
        /// Copies of the releases asked about, and copies whose barcode is the code.
        public var owned: [OwnedCopy] = []
        /// Copies of other releases of the masters asked about, with their master.
        public var sameMaster: [(copy: OwnedCopy, master: Int)] = []
        /// Wantlist entries of the releases asked about (removed ones left out).
        public var wanted: [WantEntry] = []
        /// The price cache's latest figure for each release asked about that has one.
        public var prices: [Int: PriceFigure] = [:]

        public init() {}
    }

    /// The copies of `releases` (and those whose barcode is `gtin`), the copies of other
    /// releases of `masters`, the wants of `releases` and their latest prices. Each by an
    /// index: a check of one code reads a few pages, whatever the collection's size.
    public func checkFacts(releases: [Int], masters: [Int], gtin: GTIN?) async throws(StoreError) -> CheckFacts {
        try await read { db in try Self.fetchCheckFacts(db, releases: releases, masters: masters, gtin: gtin) }
    }

    static func fetchCheckFacts(_ db: Database, releases: [Int], masters: [Int], gtin: GTIN?) throws -> CheckFacts {
        var facts = CheckFacts()
        var places: [Int64: String] = [:]
        var seen: Set<Int64> = []
        for release in releases {
            for copy in try fetchCopies(db, condition: "r.releaseID = ?", arguments: [release], places: &places)
            where seen.insert(copy.id).inserted {
                facts.owned.append(copy)
            }
        }
        if let gtin {
            for copy in try fetchCopies(db, condition: "r.gtin = ?", arguments: [gtin.canonical], places: &places)
            where seen.insert(copy.id).inserted {
                facts.owned.append(copy)
            }
        }
        let asked = Set(releases)
        for master in Set(masters).sorted() {
            let copies = try fetchCopies(
                db, condition: "r.releaseID IN (SELECT id FROM release WHERE masterID = ?)", arguments: [master], places: &places)
            for copy in copies where !asked.contains(copy.releaseID ?? 0) && !seen.contains(copy.id) {
                facts.sameMaster.append((copy, master))
            }
        }
        for release in releases {
            if let want = try fetchWant(db, releaseID: release) { facts.wanted.append(want) }
            if let price = try fetchLatestPrice(db, releaseID: release) { facts.prices[release] = price }
        }
        return facts
    }

    /// The latest figure the price cache holds for a release, in whatever currency it was
    /// asked.
    static func fetchLatestPrice(_ db: Database, releaseID: Int) throws -> PriceFigure? {
        guard let row = try Row.fetchOne(
            db, sql: "SELECT currency, lowestPrice, numForSale, at FROM releasePrice WHERE releaseID = ? ORDER BY at DESC LIMIT 1",
            arguments: [releaseID])
        else { return nil }
        return PriceFigure(lowest: row[1], currency: row[0], forSale: row[2], asOf: StoredValues.date(row[3]))
    }

    /// The copies `condition` selects (on `record r`), with their release's values as shown
    /// (the collector's where set) and their place's path.
    static func fetchCopies(
        _ db: Database, condition: String, arguments: StatementArguments, places: inout [Int64: String]
    ) throws -> [OwnedCopy] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT r.id, r.releaseID, r.locationID, r.mediaCondition, r.sleeveCondition, r.rating, r.addedAt,
                       COALESCE(r.ownArtist, rel.artist, ''), COALESCE(r.ownTitle, rel.title, ''),
                       COALESCE(r.ownCountry, rel.country), COALESCE(r.ownYear, rel.year),
                       COALESCE(r.ownFormat, rel.formatSummary), r.ownLabel, r.ownCatno, rel.labelsJSON
                FROM record r LEFT JOIN release rel ON rel.id = r.releaseID
                WHERE \(condition) ORDER BY r.addedAt, r.id
                """,
            arguments: arguments)
        return try rows.map { row in
            var place: String?
            if let locationID: Int64 = row[2] {
                if let known = places[locationID] {
                    place = known
                } else {
                    place = try StoredValues.fetchLocation(db, id: locationID)?.pathText
                    places[locationID] = place
                }
            }
            let labels = (row[14] as String?).flatMap { try? JSONDecoder().decode([Release.LabelCredit].self, from: Data($0.utf8)) } ?? []
            let catnos = labels.compactMap(\.catno).filter { !$0.isEmpty }
            let label: String? = row[12] ?? (labels.isEmpty ? nil : labels.map(\.name).joined(separator: ", "))
            let catno: String? = row[13] ?? (catnos.isEmpty ? nil : catnos.joined(separator: ", "))
            let rating: Int = row[5]
            return OwnedCopy(
                id: row[0], releaseID: row[1], place: place,
                grading: CopyGrading(
                    media: (row[3] as String?).flatMap(MediaCondition.init(rawValue:)),
                    sleeve: (row[4] as String?).flatMap(SleeveCondition.init(rawValue:)), rating: Rating(clamping: rating)),
                addedAt: StoredValues.date(row[6]), artist: row[7], title: row[8], country: row[9], year: row[10], format: row[11],
                label: label, catno: catno)
        }
    }
}

extension CollectionStore {
    /// The price cache's latest figure of each release among `releases` that has one.
    public func latestPrices(releases: [Int]) async throws(StoreError) -> [Int: PriceFigure] {
        try await read { db in
            var prices: [Int: PriceFigure] = [:]
            for release in releases {
                if let price = try Self.fetchLatestPrice(db, releaseID: release) { prices[release] = price }
            }
            return prices
        }
    }
}

extension CollectionStore {
    /// What the collection holds of each of `releaseIDs` that it holds or wants: copies (the
    /// first one's place and grades), and the wantlist. By indexes: a listing of a page of
    /// releases reads a few rows each.
    public func releaseMarks(_ releaseIDs: [Int]) async throws(StoreError) -> [Int: ReleaseMarks] {
        guard !releaseIDs.isEmpty else { return [:] }
        return try await read { db in
            var marks: [Int: ReleaseMarks] = [:]
            var places: [Int64: String] = [:]
            for id in Set(releaseIDs) {
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE releaseID = ?", arguments: [id]) ?? 0
                var mark = ReleaseMarks(copies: count)
                if count > 0, let first = try Self.fetchCopies(db, condition: "r.id = (SELECT id FROM record WHERE releaseID = ? ORDER BY addedAt, id LIMIT 1)", arguments: [id], places: &places).first {
                    mark.place = first.place
                    let grades = first.grading
                    if grades.media != nil || grades.sleeve != nil {
                        mark.grade = "\(grades.media?.abbreviation ?? "–")/\(grades.sleeve?.abbreviation ?? "–")"
                    }
                }
                mark.wanted = try Bool.fetchOne(db, sql: "SELECT 1 FROM want WHERE releaseID = ? AND removedAt IS NULL", arguments: [id]) ?? false
                if !mark.isEmpty { marks[id] = mark }
            }
            return marks
        }
    }
}
