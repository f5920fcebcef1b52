import CratesCore
import Foundation
import GRDBSQLite

/// Builds a catalogue file from a dump's releases, batch by batch, into a file beside the
/// catalogue (`CatalogueLocation.buildingPath`), and swaps it in with one rename when
/// complete: the catalogue in place answers all through the build, and stays as it was when
/// the build fails or is abandoned (the building file is removed).
///
/// The building file is no database anyone reads until the rename, so it is written as fast
/// as SQLite writes: no journal, no syncs until the end, one transaction per
/// `releasesPerTransaction`, `rowsPerStatement` rows a statement, the words indexed a
/// transaction at a time, the barcode and catalogue-number keys sorted in runs during the
/// load (`CatalogueKeyRuns`) and written into their tables, in order, at the end. Written
/// through SQLite's C interface: millions of rows.
///
/// Not Sendable: one thread drives a build.
public final class DiscogsCatalogueBuilder {
    public static let releasesPerTransaction = 100_000
    /// Rows of one table written by one statement. A statement's fixed cost (its program
    /// begun, a cursor opened and sought, reset) was most of what a row cost; 32 rows a
    /// statement write the release rows and the keys in about two thirds of the CPU time
    /// (200,000 releases), and more buy nothing measurable.
    public static let rowsPerStatement = 32

    public let path: String
    public let edition: CatalogueEdition
    private let buildingPath: String
    /// The collection's database, which a build never replaces.
    private let collection: String?
    /// The releases of the catalogue the build replaces; nil when there is none.
    private let replacing: Int?
    /// The building file, open and locked: set once it is this build's (a build refused
    /// before then removes nothing).
    private var lockDescriptor: Int32 = -1
    private var db: OpaquePointer?
    // One thread drives a build, so the runtime's check of each access to the state it
    // changes per release (`@exclusivity(unchecked)`) guards nothing.
    /// The prepared statements, by `Statement.rawValue` (an array: one is looked up per row).
    @exclusivity(unchecked) private var statements: [OpaquePointer?] = []
    /// The terms met lately, by text: a cache of `temp.term_key`, emptied when it reaches
    /// `termCacheLimit` (Discogs' free format texts make millions of terms, which held all
    /// at once grew with the dump).
    @exclusivity(unchecked) private var terms: [String: Int] = [:]
    @exclusivity(unchecked) private var termCount = 0
    public static let termCacheLimit = 50_000
    /// The label ids written lately, one a slot by the id's low bits: most releases are on a
    /// few big labels, whose rows need no second INSERT.
    @exclusivity(unchecked) private var labelsWritten = [Int](repeating: 0, count: 1 << 14)
    /// Rows waiting for a statement of `rowsPerStatement` rows (written at the latest when
    /// the batch in hand ends, so nothing waits between `add` calls).
    @exclusivity(unchecked) private var releaseRows: [ReleaseRow] = []
    @exclusivity(unchecked) private var labelRows: [(id: Int, name: String)] = []
    /// The keys, sorted a run at a time while the dump is read, merged into their tables at
    /// the end.
    private let barcodeKeys: CatalogueKeyRuns
    private let catnoKeys: CatalogueKeyRuns
    /// The highest release id written. A release above it cannot be one listed twice, and is
    /// written with others; one at or below it (a dump out of order, or a release listed
    /// again) is written alone, after the rows waiting, where SQLite says whether its id is
    /// taken.
    @exclusivity(unchecked) private var highestID = 0
    /// The words of the releases up to this id are indexed (`indexWords`); `wordsMissed` when
    /// a release at or below it was written since (a dump out of order), whose words the end
    /// of the build then indexes by reading every release again.
    @exclusivity(unchecked) private var indexedThrough = 0
    @exclusivity(unchecked) private var wordsMissed = false
    /// `CatalogueKeyRuns.runLength`, smaller in the tests that merge keys from many runs.
    var keyRunLength: Int {
        get { catnoKeys.runLength }
        set {
            catnoKeys.runLength = newValue
            barcodeKeys.runLength = newValue
        }
    }
    /// `releasesPerTransaction`, smaller in the tests that cross a commit with a few releases.
    var transactionSize = DiscogsCatalogueBuilder.releasesPerTransaction
    @exclusivity(unchecked) private var inTransaction = false
    @exclusivity(unchecked) private var sinceCommit = 0
    @exclusivity(unchecked) private(set) public var releases = 0
    /// Releases the dump listed twice (the second is left out): how many, and the first
    /// hundred ids (the summary names no more).
    @exclusivity(unchecked) private(set) public var duplicateCount = 0
    @exclusivity(unchecked) private(set) public var duplicates: [Int] = []
    /// SQLite's own words for the last failure, for `--verbose`: the messages say it in
    /// crates' words.
    private(set) public var failureDetail: String?
    private var finished = false

    private enum Statement: Int, CaseIterable {
        case release, label, term, termKey, findTerm
        /// `release` and `label` for `rowsPerStatement` rows.
        case releases, labels
        var sql: String {
            switch self {
            case .release: "INSERT INTO release(id, artist, title, labels, facets, released, master, main) VALUES (?,?,?,?,?,?,?,?)"
            case .label: "INSERT OR IGNORE INTO label(id, name) VALUES (?,?)"
            case .term: "INSERT INTO term(id, text) VALUES (?,?)"
            case .termKey: "INSERT INTO temp.term_key(text, id) VALUES (?,?)"
            case .findTerm: "SELECT id FROM temp.term_key WHERE text = ?"
            case .releases: Self.release.manyRows
            case .labels: Self.label.manyRows
            }
        }

        private var manyRows: String { DiscogsCatalogueBuilder.manyRows(sql) }
    }

    /// A one-row INSERT's SQL with `rowsPerStatement` rows of values.
    private static func manyRows(_ sql: String) -> String {
        guard let values = sql.range(of: " VALUES ") else { return sql }
        let row = String(sql[values.upperBound...])
        return sql[..<values.upperBound] + repeatElement(row, count: rowsPerStatement).joined(separator: ",")
    }

    /// A `release` row waiting to be written.
    private struct ReleaseRow {
        var id: Int
        var artist: String
        var title: String
        var labels: String
        var facets: [UInt8]
        var released: Int?
        var master: Int?
        var main: Bool
    }

    /// Starts a build of the catalogue at `path`. Checks first that what is there is a
    /// catalogue or nothing (`CatalogueFileSafety`: never the collection at `collection`, nor
    /// any other file), that the directory has `neededBytes` free (the building file, and
    /// the keys' sorted runs and SQLite's temporary files), and that no other build of it is
    /// under way; a building file left by a build that was killed is taken over.
    public init(path: String, edition: CatalogueEdition, neededBytes: Int64, sparing collection: String? = nil) throws(CatalogueFileError) {
        self.path = path
        self.edition = edition
        self.collection = collection
        buildingPath = CatalogueLocation.buildingPath(for: path)
        barcodeKeys = CatalogueKeyRuns(.integer, beside: path)
        catnoKeys = CatalogueKeyRuns(.text, beside: path)
        do {
            try StoreLocation.prepareDirectory(for: path)
        } catch {
            throw .cannotWrite(path: path, reason: "\(error)")
        }
        replacing = try CatalogueFileSafety.checkReplaceable(path, sparing: collection)
        let directory = StoreLocation.directoryPart(of: path)
        let free = FreeSpace.bytes(at: directory.isEmpty ? "." : directory)
        if let free, free < neededBytes {
            throw .noSpace(directory: directory.isEmpty ? "." : directory, needed: neededBytes, available: free)
        }
        lockDescriptor = try Self.takeBuildingFile(buildingPath, for: path)
        do throws(CatalogueFileError) {
            try openDatabase()
        } catch {
            abandon()
            throw error
        }
    }

    /// Opens the building file and locks it, this build's alone from then on: made anew
    /// (`O_EXCL`: never an existing file, nor through a link planted in its place), or, when
    /// one is there, taken over only when it is this user's plain file and no build holds
    /// its lock (a build that was killed). Anything else there (a symbolic link, another
    /// user's file, a directory) is left as it is, and the build refused. Returns the
    /// descriptor that holds the lock.
    private static func takeBuildingFile(_ buildingPath: String, for path: String) throws(CatalogueFileError) -> Int32 {
        let created = open(buildingPath, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if created >= 0 {
            guard flock(created, LOCK_EX | LOCK_NB) == 0 else {
                close(created)
                throw .buildUnderWay(path: path)
            }
            return created
        }
        guard errno == EEXIST else { throw .cannotWrite(path: path, reason: "cannot create \(buildingPath): \(String(cString: strerror(errno)))") }
        var info = stat()
        guard lstat(buildingPath, &info) == 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        switch info.st_mode & S_IFMT {
        case S_IFLNK: throw .unsafeBuildingFile(path: buildingPath, reason: "is a symbolic link")
        case S_IFREG: break
        default: throw .unsafeBuildingFile(path: buildingPath, reason: "is not a plain file")
        }
        guard info.st_uid == geteuid() else {
            throw .unsafeBuildingFile(path: buildingPath, reason: "belongs to another user (uid \(info.st_uid))")
        }
        let existing = open(buildingPath, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard existing >= 0 else { throw .cannotWrite(path: path, reason: "cannot open \(buildingPath): \(String(cString: strerror(errno)))") }
        // A build under way holds the lock: its file is left alone.
        guard flock(existing, LOCK_EX | LOCK_NB) == 0 else {
            close(existing)
            throw .buildUnderWay(path: path)
        }
        var opened = stat()
        guard fstat(existing, &opened) == 0, opened.st_dev == info.st_dev, opened.st_ino == info.st_ino else {
            close(existing)
            throw .buildUnderWay(path: path)
        }
        ftruncate(existing, 0)
        return existing
    }

    deinit {
        if !finished { abandon() }
    }

    private func openDatabase() throws(CatalogueFileError) {
        // NOMUTEX: one thread drives a build, so the connection's mutex (taken by every
        // bind and step, millions of them) guards nothing.
                // NOFOLLOW: the file just locked is a plain file; a link put in its place since is
        // refused rather than written through.
        guard sqlite3_open_v2(buildingPath, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW, nil) == SQLITE_OK else {
            throw failure("cannot create \(buildingPath)")
        }
        // SQLite's temporary files (the terms by text) go beside the catalogue, where the free
        // space was checked, as the keys' sorted runs do (`CatalogueKeyRuns`), not to a /tmp
        // that may be small. The page cache is what bounds the build's memory whatever the
        // dump's size: 16 MB. The rows are written in order, so a larger cache buys little;
        // at 64 MB (and the index sort's as much) it was most of a peak that grew to 158 MB.
        let directory = StoreLocation.directoryPart(of: path)
        try execute("""
            PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE;
            PRAGMA cache_size=-16384; PRAGMA temp_store=FILE;
            PRAGMA temp_store_directory=\(Self.literal(directory.isEmpty ? "." : directory));
            """)
        try execute(CatalogueSchema.tables)
        for statement in Statement.allCases {
            statements.append(try prepare(statement.sql))
            assert(statements.count == statement.rawValue + 1)
        }
    }

    /// Adds `batch` (releases in dump order).
    public func add(_ batch: [DumpRelease]) throws(CatalogueFileError) {
        try add(batch, keys: batch.map(DumpReleaseKeys.init))
    }

    /// Adds `batch` (releases in dump order) with each one's index keys (`keys[i]` is
    /// `batch[i]`'s; `DumpBatch` brings both).
    public func add(_ batch: [DumpRelease], keys: [DumpReleaseKeys]) throws(CatalogueFileError) {
        precondition(keys.count == batch.count, "one DumpReleaseKeys a release")
        if !inTransaction {
            try execute("BEGIN")
            inTransaction = true
        }
        for index in batch.indices { try add(batch[index], keys[index]) }
        try writeRows()
        sinceCommit += batch.count
        if sinceCommit >= transactionSize {
            try indexWords()
            try execute("COMMIT")
            inTransaction = false
            sinceCommit = 0
        }
    }

    private func add(_ release: DumpRelease, _ keys: DumpReleaseKeys) throws(CatalogueFileError) {
        var facets = CatalogueFacets()
        facets.genres = try release.genres.map(term)
        facets.styles = try release.styles.map(term)
        facets.formats = try release.formats.map { format throws(CatalogueFileError) in try term(format.summary) }
        facets.country = try release.country.map(term) ?? 0
        var labelText = ""
        for (index, label) in release.labels.enumerated() {
            if index > 0 { labelText += "\u{1E}" }
            labelText += label.catno
            facets.labels.append(label.id)
            if label.id > 0 {
                let slot = label.id & (labelsWritten.count - 1)
                if labelsWritten[slot] != label.id {
                    labelRows.append((label.id, label.name))
                    labelsWritten[slot] = label.id
                }
            } else {
                labelText += "\u{1F}" + label.name
            }
        }
        let row = ReleaseRow(
            id: release.id, artist: release.artistCredit, title: release.title, labels: labelText, facets: facets.encoded(),
            released: release.releasedNumber, master: release.masterID, main: release.isMainRelease)
        if release.id > highestID {
            highestID = release.id
            releaseRows.append(row)
        } else {
            try writeRows()
            guard try run(.release, allowConstraint: true, { s in Self.bind(row, to: s, at: 0) }) else {
                duplicateCount += 1
                if duplicates.count < 100 { duplicates.append(release.id) }
                return
            }
            if release.id <= indexedThrough { wordsMissed = true }
        }
        for key in keys.barcodes { try barcodeKeys.add(key, release: release.id) }
        for key in keys.catalogueNumbers { try catnoKeys.add(key, release: release.id) }
        releases += 1
    }

    /// Indexes the words (`release_text`) of the releases written since the last time, read
    /// back from `release` by one statement. An FTS5 INSERT a release cost three times what
    /// indexing the same words this way does (the statement's cost, not the words'), and
    /// done at each commit the indexing overlaps the reading threads, where indexing all at
    /// the end would add to the build's serial end. The rows read back are the last written,
    /// still in the page cache.
    private func indexWords() throws(CatalogueFileError) {
        try execute("INSERT INTO release_text(rowid, artist, title) SELECT id, artist, title FROM release WHERE id > \(indexedThrough)")
        indexedThrough = highestID
    }

    /// Writes the rows waiting, `rowsPerStatement` a statement and the rest one by one.
    private func writeRows() throws(CatalogueFileError) {
        try write(&releaseRows, .release, .releases, columns: 8) { row, s, at in Self.bind(row, to: s, at: at) }
        try write(&labelRows, .label, .labels, columns: 2) { row, s, at in
            sqlite3_bind_int64(s, at + 1, Int64(row.id))
            Self.bind(row.name, to: s, at: at + 2)
        }
    }

    /// Rows are bound where they lie (borrowed): a copy of each retained and released its
    /// strings again.
    private func write<Row>(
        _ rows: inout [Row], _ one: Statement, _ many: Statement, columns: Int32, _ bind: (borrowing Row, OpaquePointer, Int32) -> Void
    ) throws(CatalogueFileError) {
        try rows.withUnsafeBufferPointer { (buffer) throws(CatalogueFileError) in
            var start = 0
            while buffer.count - start >= Self.rowsPerStatement {
                try run(many) { s in
                    for k in 0..<Self.rowsPerStatement { bind(buffer[start + k], s, Int32(k) * columns) }
                }
                start += Self.rowsPerStatement
            }
            while start < buffer.count {
                try run(one) { s in bind(buffer[start], s, 0) }
                start += 1
            }
        }
        rows.removeAll(keepingCapacity: true)
    }

    /// The number of `text` in `term`, adding it when new: from the cache, else from
    /// `temp.term_key` (the terms by text, which the catalogue does not keep).
    private func term(_ text: String) throws(CatalogueFileError) -> Int {
        if let id = terms[text] { return id }
        var id = 0
        try run(.findTerm, row: { s in id = Int(sqlite3_column_int64(s, 0)) }) { s in Self.bind(text, to: s, at: 1) }
        if id == 0 {
            termCount += 1
            id = termCount
            try run(.term) { s in
                sqlite3_bind_int64(s, 1, Int64(id))
                Self.bind(text, to: s, at: 2)
            }
            try run(.termKey) { s in
                Self.bind(text, to: s, at: 1)
                sqlite3_bind_int64(s, 2, Int64(id))
            }
        }
        if terms.count >= Self.termCacheLimit { terms.removeAll(keepingCapacity: true) }
        terms[text] = id
        return id
    }

    /// Writes the keys of `runs`, merged in key order, into the table `into` (its name and
    /// two columns: the key's and the release's), `rowsPerStatement` rows a statement. A
    /// b-tree written in key order is written once and packed full.
    private func writeKeys(_ runs: CatalogueKeyRuns, into table: String) throws(CatalogueFileError) {
        let one = try prepare("INSERT INTO \(table) VALUES (?,?)")
        defer { sqlite3_finalize(one) }
        let many = try prepare(Self.manyRows("INSERT INTO \(table) VALUES (?,?)"))
        defer { sqlite3_finalize(many) }
        // The rows of the next statement: text keys' bytes copied here, bound in place. A
        // byte first, so that an empty key too is bound from an address (no address binds
        // NULL).
        var text: [UInt8] = [0]
        var rows: [(offset: Int, length: Int, key: UInt64, release: Int64)] = []
        rows.reserveCapacity(Self.rowsPerStatement)
        let isText = runs.kind == .text
        func bind(_ statement: OpaquePointer, _ row: (offset: Int, length: Int, key: UInt64, release: Int64), at: Int32, _ base: UnsafeRawPointer?) {
            if isText {
                sqlite3_bind_text(statement, at + 1, base.map { ($0 + row.offset).assumingMemoryBound(to: CChar.self) }, Int32(row.length), nil)
            } else {
                sqlite3_bind_int64(statement, at + 1, Int64(bitPattern: row.key))
            }
            sqlite3_bind_int64(statement, at + 2, row.release)
        }
        func flush() throws(CatalogueFileError) {
            try text.withUnsafeBufferPointer { (typed) throws(CatalogueFileError) in
                let base = UnsafeRawBufferPointer(typed)
                if rows.count == Self.rowsPerStatement {
                    for (k, row) in rows.enumerated() { bind(many, row, at: Int32(k) * 2, base.baseAddress) }
                    try step(many)
                } else {
                    for row in rows {
                        bind(one, row, at: 0, base.baseAddress)
                        try step(one)
                    }
                }
            }
            rows.removeAll(keepingCapacity: true)
            text.removeSubrange(1...)
        }
        try runs.merge { (bytes, key, release) throws(CatalogueFileError) in
            if isText {
                rows.append((text.count, bytes.count, key, release))
                text.append(contentsOf: bytes)
            } else {
                rows.append((0, 0, key, release))
            }
            if rows.count == Self.rowsPerStatement { try flush() }
        }
        try flush()
    }

    /// Sorts the keys into their tables, writes what the build was, and swaps the file in
    /// place of the catalogue. `skipped` names the releases the dump could not give.
    /// A build that kept no release, or fewer than half the releases of the catalogue it
    /// replaces, is not swapped in unless `force`: a dump of drafts or the wrong file would
    /// otherwise empty a good catalogue.
    public func finish(
        seconds: Double, skipped: [String], skippedCount: Int, unlisted: Int, force: Bool = false
    ) throws(CatalogueFileError) -> CatalogueSummary {
        if !force, releases == 0 || replacing.map({ releases < $0 / 2 }) == true {
            abandon()
            throw .keptTooFew(path: path, releases: releases, replacing: replacing)
        }
        if inTransaction {
            try execute("COMMIT")
            inTransaction = false
        }
        for statement in statements { sqlite3_finalize(statement) }
        statements = []
        try execute("BEGIN")
        if wordsMissed {
            try execute("INSERT INTO release_text(release_text) VALUES('rebuild')")
        } else {
            try indexWords()
        }
        try execute(CatalogueSchema.barcodeTable)
        try writeKeys(barcodeKeys, into: "barcode(gtin, release)")
        try execute(CatalogueSchema.catnoTable)
        try writeKeys(catnoKeys, into: "catno(key, release)")
        try execute(CatalogueSchema.wordsMerge)
        let barcodes = try count("SELECT count(*) FROM (SELECT DISTINCT gtin FROM barcode)")
        let builtAt = Date()
        let meta: [(String, String)] = [
            ("format", CatalogueSchema.format), ("date", edition.dumpDate), ("releases", "\(releases)"),
            ("barcodes", "\(barcodes)"), ("builtAt", CatalogueSummary.timestamp(builtAt)),
            ("seconds", String(format: "%.1f", seconds)), ("skipped", "\(skippedCount + duplicateCount)"),
            ("unlisted", "\(unlisted)"),
            ("skippedReleases", (skipped + duplicates.map { "release \($0): listed twice" }).prefix(100).joined(separator: "\n")),
        ]
        for (key, value) in meta {
            try execute("INSERT INTO meta(key, value) VALUES (\(Self.literal(key)), \(Self.literal(value)))")
        }
        try execute("COMMIT")
        sqlite3_close_v2(db)
        db = nil
        // What is in the catalogue's place may have changed during the build: still a
        // catalogue or nothing, or the build is not swapped in.
        do throws(CatalogueFileError) {
            _ = try CatalogueFileSafety.checkReplaceable(path, sparing: collection)
        } catch {
            abandon()
            throw error
        }
        // On disk before the rename, and the rename on disk before saying it is done.
        let file = open(buildingPath, O_RDONLY | O_CLOEXEC)
        if file >= 0 {
            fsync(file)
            close(file)
        }
        guard rename(buildingPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            abandon()
            throw .cannotWrite(path: path, reason: reason)
        }
        let directory = StoreLocation.directoryPart(of: path)
        let handle = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if handle >= 0 {
            fsync(handle)
            close(handle)
        }
        finished = true
        if lockDescriptor >= 0 {
            close(lockDescriptor)
            lockDescriptor = -1
        }
        return CatalogueSummary(
            path: path, edition: edition, releases: releases, barcodes: barcodes, bytes: Self.size(of: path),
            builtAt: builtAt, seconds: seconds, skipped: skippedCount + duplicateCount,
            skippedReleases: skipped + duplicates.map { "release \($0): listed twice" })
    }

    /// Stops the build: the building file is removed and the catalogue stays as it was.
    public func abandon() {
        for statement in statements { sqlite3_finalize(statement) }
        statements = []
        if let db { sqlite3_close_v2(db) }
        db = nil
        // Only a building file this build made or took over (it holds the lock) is removed.
        if !finished, lockDescriptor >= 0 { unlink(buildingPath) }
        finished = true
        if lockDescriptor >= 0 {
            close(lockDescriptor)
            lockDescriptor = -1
        }
    }

    /// The size of the file at `path` in bytes (0 when there is none).
    static func size(of path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    // MARK: - SQLite

    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// Binds `row` to the parameters after `offset` (a statement of many rows has each row's
    /// eight after the rows before it).
    private static func bind(_ row: borrowing ReleaseRow, to s: OpaquePointer, at offset: Int32) {
        sqlite3_bind_int64(s, offset + 1, Int64(row.id))
        bind(row.artist, to: s, at: offset + 2)
        bind(row.title, to: s, at: offset + 3)
        bind(row.labels, to: s, at: offset + 4)
        _ = row.facets.withUnsafeBytes { sqlite3_bind_blob(s, offset + 5, $0.baseAddress, Int32($0.count), transient) }
        if let released = row.released { sqlite3_bind_int64(s, offset + 6, Int64(released)) } else { sqlite3_bind_null(s, offset + 6) }
        if let master = row.master { sqlite3_bind_int64(s, offset + 7, Int64(master)) } else { sqlite3_bind_null(s, offset + 7) }
        sqlite3_bind_int64(s, offset + 8, row.main ? 1 : 0)
    }

    private static func bind(_ text: String, to statement: OpaquePointer, at index: Int32) {
        _ = text.withCString { sqlite3_bind_text(statement, index, $0, -1, transient) }
    }

    private static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// Runs a prepared statement once (`row` reads the row it gives, if any); false when
    /// `allowConstraint` and a key was taken.
    @discardableResult
    private func run(
        _ which: Statement, allowConstraint: Bool = false, row: ((OpaquePointer) -> Void)? = nil, _ bind: (OpaquePointer) -> Void
    ) throws(CatalogueFileError) -> Bool {
        guard which.rawValue < statements.count, let statement = statements[which.rawValue] else { throw failure("the build was ended") }
        bind(statement)
        var code = sqlite3_step(statement)
        if code == SQLITE_ROW {
            row?(statement)
            code = SQLITE_DONE
        }
        // Every parameter is bound again before the next run: no clearing of bindings.
        sqlite3_reset(statement)
        if code == SQLITE_DONE { return true }
        if allowConstraint, code == SQLITE_CONSTRAINT { return false }
        throw failure("cannot write")
    }

    private func prepare(_ sql: String) throws(CatalogueFileError) -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure("cannot prepare the catalogue's tables")
        }
        return statement
    }

    /// Runs a statement bound in full once.
    private func step(_ statement: OpaquePointer) throws(CatalogueFileError) {
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw failure("cannot write") }
    }

    private func execute(_ sql: String) throws(CatalogueFileError) {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw failure("cannot write") }
    }

    private func count(_ sql: String) throws(CatalogueFileError) -> Int {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw failure("cannot read back") }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw failure("cannot read back") }
        return Int(sqlite3_column_int64(statement, 0))
    }

    private func failure(_ what: String) -> CatalogueFileError {
        var code: Int32 = SQLITE_ERROR
        if let db {
            failureDetail = sqlite3_errmsg(db).map { String(cString: $0) }
            code = sqlite3_extended_errcode(db)
        }
        let words = CatalogueFileError.writingWords(sqliteCode: code)
        return .cannotWrite(path: path, reason: code & 0xFF == SQLITE_FULL ? words : "\(what): \(words)")
    }
}
