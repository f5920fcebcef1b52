import CratesCore
import Foundation
import GRDB

// A person grades a copy through `CollectionStore.edit` (a `RecordEdit`'s grading and note);
// this writes what a Discogs sync takes into a copy.
extension StoredValues {
    /// Writes a copy's grading columns and note.
    static func setGrading(_ db: Database, recordID: Int64, grading: CopyGrading, note: String?, now: Date) throws {
        let assignments = gradingColumns.map { "\($0) = ?" }.joined(separator: ", ")
        try db.cachedStatement(sql: "UPDATE record SET \(assignments), note = ?, updatedAt = ? WHERE id = ?")
            .execute(arguments: StatementArguments(gradingValues(grading) + [note, seconds(now), recordID]))
    }
}
