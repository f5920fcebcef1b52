import GRDB

/// "v13 lookup state check": `record.lookupState` holds one of the states this build knows,
/// or the write is refused. SQLite adds a CHECK constraint to an existing table only by
/// rebuilding it (a million rows, with the filter index and the triggers that keep it),
/// so two triggers hold the same rule: a write of any other text aborts its statement.
///
/// The states are written out here, not taken from `LookupState`: a migration, once
/// released, never changes. A new state comes with a migration that replaces these
/// triggers (a test compares this list with `LookupState.allCases`).
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
}
