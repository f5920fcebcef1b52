import GRDB

extension Schema {
    /// v15: what Discogs' marketplace said the collection is worth, kept with the day it was
    /// asked, so that the value can be shown over time (`crates value --history`).
    ///
    /// One row per thing per day (the day in UTC, `YYYY-MM-DD`): asking again the same day
    /// replaces that day's row, another day adds one. No foreign keys: a release fetched
    /// again is replaced in `release` (and its history must stay), and a record deleted
    /// then restored keeps its id; readers join on what still exists.
    ///
    /// - `releasePrice`: a release's lowest price listed and how many are for sale, from
    ///   `GET /marketplace/stats` (`source` 'stats') or a full release fetch ('release',
    ///   whose currency is the account's, `currency` '' when crates did not know it then);
    ///   `lowestPrice` NULL when none is listed.
    /// - `copyPrice`: the price Discogs suggests for a copy's media grade.
    /// - `collectionValue`: the collection's minimum, median and maximum, as numbers and as
    ///   Discogs wrote them.
    static func addPriceObservations(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE releasePrice (
                releaseID INTEGER NOT NULL,
                day TEXT NOT NULL,
                currency TEXT NOT NULL,
                lowestPrice REAL,
                numForSale INTEGER,
                source TEXT NOT NULL,
                at REAL NOT NULL,
                PRIMARY KEY (releaseID, day)
            ) WITHOUT ROWID;
            CREATE TABLE copyPrice (
                recordID INTEGER NOT NULL,
                day TEXT NOT NULL,
                grade TEXT NOT NULL,
                currency TEXT NOT NULL,
                suggestedPrice REAL NOT NULL,
                at REAL NOT NULL,
                PRIMARY KEY (recordID, day)
            ) WITHOUT ROWID;
            CREATE TABLE collectionValue (
                day TEXT NOT NULL PRIMARY KEY,
                currency TEXT NOT NULL,
                minimum REAL,
                median REAL,
                maximum REAL,
                minimumText TEXT NOT NULL,
                medianText TEXT NOT NULL,
                maximumText TEXT NOT NULL,
                at REAL NOT NULL
            ) WITHOUT ROWID;
            """)
    }
}
