import GRDB

extension Schema {
    /// v19: what the collector paid for a copy and who has it on loan, kept on the copy and
    /// never sent to Discogs (its collection has no such fields).
    ///
    /// - `purchasePrice`: the amount as crates writes it (`MoneyAmount.text`, "12.50"), text
    ///   so that it comes back exactly as it went in; compared as a number in SQL.
    ///   `purchaseCurrency`: an ISO 4217 code (`CurrencyCode`), or NULL when not said.
    ///   `purchaseDate`: a day, `YYYY-MM-DD` (a date on a receipt, not a moment).
    ///   `purchaseFrom`: the shop, fair or seller, as typed.
    /// - `loanTo`: whom the copy is lent to; `loanSince` and `loanReturned` the days, as
    ///   `YYYY-MM-DD`. A copy is out while `loanTo` is set and `loanReturned` is not; a loan
    ///   returned stays (the last one), so the details can say who had it last.
    ///
    /// The partial index serves "who has my records?": the copies out, by whom.
    ///
    /// - `discogsRefusedAdd`: a copy whose add Discogs refused (a release it does not have),
    ///   with the release it was refused for, why, and when. A sync sends no add for a copy
    ///   while its release is still that one: the collector acts by choosing another (the
    ///   row then no longer applies), and every sync otherwise retried the same refusals.
    static func addPurchaseAndLoan(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE discogsRefusedAdd (
                recordID INTEGER PRIMARY KEY REFERENCES record(id) ON DELETE CASCADE,
                releaseID INTEGER NOT NULL,
                reason TEXT NOT NULL,
                at REAL NOT NULL
            );
            """)
        try db.execute(sql: """
            ALTER TABLE record ADD COLUMN purchasePrice TEXT;
            ALTER TABLE record ADD COLUMN purchaseCurrency TEXT;
            ALTER TABLE record ADD COLUMN purchaseDate TEXT;
            ALTER TABLE record ADD COLUMN purchaseFrom TEXT;
            ALTER TABLE record ADD COLUMN loanTo TEXT;
            ALTER TABLE record ADD COLUMN loanSince TEXT;
            ALTER TABLE record ADD COLUMN loanReturned TEXT;
            CREATE INDEX record_out_on_loan ON record(loanTo) WHERE loanTo IS NOT NULL AND loanReturned IS NULL;
            """)
    }
}
