import GRDB

/// "v13 lookup state check": `record.lookupState` holds one of the states this build knows,
/// or the write is refused. SQLite adds a CHECK constraint to an existing table only by
/// rebuilding it (a million rows, with the filter index and the triggers that keep it),
/// so two triggers hold the same rule: a write of any other text aborts its statement.
///
/// The states are written out here, not taken from `LookupState`: a migration, once
/// released, never changes. A new state comes with a migration that replaces these
/// triggers (a test compares this list with `LookupState.allCases`). "v27 lookup state
/// check by comparison" wrote them again, the same rule in a form that costs a row
/// almost nothing (`compareLookupStates`).
extension Schema {
    static let checkedLookupStates = ["pending", "lookingUp", "matched", "ambiguous", "notFound", "failed", "skipped", "handEntered"]

    static func addLookupStateCheck(_ db: Database) throws {
        let states = checkedLookupStates.map { "'\($0)'" }.joined(separator: ", ")
        try db.execute(sql: """
            CREATE TRIGGER record_lookupState_insert BEFORE INSERT ON record
            WHEN NEW.lookupState NOT IN (\(states)) BEGIN
                SELECT RAISE(ABORT, 'not a lookup state');
            END;
            CREATE TRIGGER record_lookupState_update BEFORE UPDATE OF lookupState ON record
            WHEN NEW.lookupState NOT IN (\(states)) BEGIN
                SELECT RAISE(ABORT, 'not a lookup state');
            END;
            """)
    }

    /// v27: the same rule, the states compared one by one. `NOT IN (…)` in a trigger's WHEN
    /// built a temporary index of the eight states each time the trigger ran, that is for
    /// every row inserted or whose state changed (SQLite builds an IN list's table once per
    /// run of a program, and a trigger's program runs for each row): about 35,000
    /// instructions a row. Callgrind, the import's statements for 20,000 barcodes (batches of 5,000): 2.77
    /// billion instructions with the list, 2.06 billion with the comparisons, 1.88 billion
    /// with no such trigger. The comparisons refuse exactly what the list refused (a NULL
    /// state passes both, and meets `NOT NULL`).
    static func compareLookupStates(_ db: Database) throws {
        let unknown = checkedLookupStates.map { "NEW.lookupState <> '\($0)'" }.joined(separator: " AND ")
        try db.execute(sql: """
            DROP TRIGGER IF EXISTS record_lookupState_insert;
            DROP TRIGGER IF EXISTS record_lookupState_update;
            CREATE TRIGGER record_lookupState_insert BEFORE INSERT ON record
            WHEN \(unknown) BEGIN
                SELECT RAISE(ABORT, 'not a lookup state');
            END;
            CREATE TRIGGER record_lookupState_update BEFORE UPDATE OF lookupState ON record
            WHEN \(unknown) BEGIN
                SELECT RAISE(ABORT, 'not a lookup state');
            END;
            """)
    }
}
